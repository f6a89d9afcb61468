export * from './site';
export * from './faq';
export * from './documentation';
export * from './api-endpoints';
export * from './privacy-policy';
export * from './support';
export * from './terms-of-service';
