import { QRCodeSVG } from 'qrcode.react';

export default function ShareQrCode({ url, size }: { url: string; size: number }) {
  return <QRCodeSVG value={url} size={size} level="M" title="QR code of the public verification link" />;
}
