export * from './steps';
export * from './extraction';
export * from './correction';
export * from './inngest';
export * from './runner';
export * from './scheduler';
export * from './retention';
export * from './lifecycle';
