import { updateProfileInput, uploadPhotoInput } from '../../../shared/schemas/profile';
import { toUserDto } from '../services/certificates/dto';
import { readUpload } from '../services/certificates/intake';
import { sanitizePhoto } from '../services/files';
import type { ImageType } from '../services/files/inspect';
import { protectedProcedure, router } from '../trpc';

export const profileRouter = router({
  get: protectedProcedure.query(({ ctx }) => toUserDto(ctx.session.user)),

  update: protectedProcedure.input(updateProfileInput).mutation(async ({ ctx, input }) => {
    const updated_at = new Date().toISOString();
    const user = await ctx.db
      .updateTable('user')
      .set({ full_name: input.full_name, email: input.email, updated_at })
      .where('id', '=', ctx.session.user.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toUserDto(user);
  }),

  /** FormData { photo }: JPG, PNG, GIF or WEBP by its bytes, at most 2 MB. */
  uploadPhoto: protectedProcedure.input(uploadPhotoInput).mutation(async ({ ctx, input }) => {
    const { bytes: raw, info } = await readUpload(input.photo, 'photo');
    // Others see the photo beside shared certificates: camera metadata (GPS, serials) is removed first.
    const bytes = await sanitizePhoto(raw, info.type as ImageType);
    const me = ctx.session.user;
    const key = `photos/${me.id}-${Date.now().toString(36)}.${info.type === 'jpeg' ? 'jpg' : info.type}`;
    const stored = await ctx.blobs.put(key, bytes, info.mime);
    // Remote stores give a public URL; local files are served by our own route.
    const remote = (ctx.blobs as { kind?: string }).kind === 'uploadthing';
    const url = remote ? stored.url : `/files/photos/${encodeURIComponent(me.id)}?v=${Date.now().toString(36)}`;
    try {
      const user = await ctx.db
        .updateTable('user')
        .set({ profile_image_key: key, profile_image_url: url, updated_at: new Date().toISOString() })
        .where('id', '=', me.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      if (me.profile_image_key && me.profile_image_key !== key) await ctx.blobs.delete(me.profile_image_key).catch(() => undefined);
      return toUserDto(user);
    } catch (e) {
      await ctx.blobs.delete(key).catch(() => undefined);
      throw e;
    }
  }),
});
