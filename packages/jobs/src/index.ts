export * from './steps';
export * from './extraction';
export * from './inngest';
export * from './runner';
export * from './retention';
