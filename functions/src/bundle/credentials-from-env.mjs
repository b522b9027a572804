// Bundles only (infra/lib/bundling.ts): Lambda gives the function's credentials as environment variables.
import { fromEnv } from '@aws-sdk/credential-provider-env';

export const defaultProvider = (init) => fromEnv(init);
