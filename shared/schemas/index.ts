export * from './common';
export * from './auth';
export * from './profile';
export * from './certificate';
export * from './dto';
export * from './details';
