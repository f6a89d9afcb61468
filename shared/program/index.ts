// The one place the app, the server and the CLI get knowledge of the `certificates` program.
export * from './ids';
export * from './pda';
export * from './codec';
export * from './reasons';
export * from './names';
export * from './discriminators';
export * from './mint';
export * from './instructions';
export * from './events';
export * from './idl';
export * from './errors';
