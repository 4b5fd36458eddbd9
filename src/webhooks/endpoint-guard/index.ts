/**
 * The SSRF guard for outgoing webhooks (docs/webhooks.md): which URLs a subscription may name, and an undici
 * Agent that only connects to the addresses it checked. Only public unicast https targets pass, unless the
 * caller opens the `allowPrivate` escape hatch for tests.
 */
export { checkEndpoint, type CheckEndpointOptions } from './check-endpoint.js';
export { checkEndpointSyntax, parseEndpointUrl } from './endpoint-syntax.js';
export {
  EndpointRefused,
  endpointRefusal,
  isEndpointRefused,
  REFUSAL,
  type RefusalReason,
} from './endpoint-refused.js';
export { createGuardedAgent, type GuardedAgentOptions } from './guarded-agent.js';
export { isPublicAddress } from './public-address.js';
export { RESOLVE_TIMEOUT_MS, systemResolve, type Resolve } from './resolve.js';
