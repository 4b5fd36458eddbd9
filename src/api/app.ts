/**
 * The Hono application: everything HTTP. It knows the engine and the store, never the transport.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import { idempotency } from './middleware/idempotency.js';
import { AppError } from '../errors.js';
import { asRunRoutes } from './as-run/routes.js';
import { assetRoutes } from './assets/routes.js';
import { assetServeRoutes } from './assets/serve-routes.js';
import { graphicFileRoutes } from './graphics/file-routes.js';
import { graphicRoutes } from './graphics/routes.js';
import { authRoutes } from './accounts/auth-routes.js';
import { memberRoutes } from './accounts/member-routes.js';
import { passwordRoutes } from './accounts/password-routes.js';
import { serverRoutes } from './accounts/server-routes.js';
import { workspaceRoutes } from './accounts/workspace-routes.js';
import { channelRoutes } from './channels/routes.js';
import type { ApiDeps, ApiEnv } from './env.js';
import { eventRoutes } from './events/routes.js';
import { inputRoutes } from './inputs/routes.js';
import { keyRoutes } from './keys/routes.js';
import { outputRoutes } from './outputs/routes.js';
import { webhookRoutes } from './webhooks/routes.js';
import { incomingHookRoutes } from './incoming-hooks/routes.js';
import { sourceRoutes } from './sources/routes.js';
import { authenticate } from './middleware/authenticate.js';
import { jsonBody } from './middleware/json-body.js';
import { refuseNulInUrl } from './middleware/nul-url.js';
import { requestContext } from './middleware/request-context.js';
import { historyRoutes } from './history/routes.js';
import { playoutRoutes } from './playout/routes.js';
import { rundownRoutes } from './rundowns/routes.js';
import { scheduleRoutes } from './schedule/routes.js';
import { handleError, validationError } from './problem.js';
import { renderRoutes } from './render/routes.js';
import { ografExportRoutes } from './ograf/export-routes.js';
import { ografServerRoutes } from './ograf-server/routes.js';
import { sceneRoutes } from './scenes/routes.js';
import { healthRoutes } from './system/health-routes.js';
import { pageRoutes } from './system/page-routes.js';
import { templateRoutes } from './templates/routes.js';

export const API_VERSION = '1.0.0';

export function createApiApp(deps: ApiDeps, publicDir: string): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationError(result.error);
    },
  });
  app.use('*', requestContext(deps.logger));
  app.use('*', refuseNulInUrl());
  app.onError(handleError);
  app.notFound(() => {
    throw new AppError('not_found', 'No such endpoint. The API reference is at /docs.');
  });

  const v1 = new OpenAPIHono<ApiEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationError(result.error);
    },
  });
  v1.openAPIRegistry.registerComponent('securitySchemes', 'session', {
    type: 'apiKey',
    in: 'cookie',
    name: 'onair_session',
  });
  v1.openAPIRegistry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'onair_sk_… API key',
  });
  v1.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'onair API',
      version: API_VERSION,
      description: 'Live broadcast graphics: channels, scenes, inputs, playout.',
    },
    servers: [{ url: '/v1' }],
  });
  // Registered after doc31: the OpenAPI document answers before authentication runs.
  v1.use('*', authenticate(deps.auth));
  v1.use('*', jsonBody());
  v1.use('*', idempotency({ store: deps.store.idempotency, box: deps.secrets }));
  for (const routes of [
    channelRoutes,
    sceneRoutes,
    inputRoutes,
    playoutRoutes,
    rundownRoutes,
    scheduleRoutes,
    historyRoutes,
    outputRoutes,
    templateRoutes,
    eventRoutes,
    asRunRoutes,
    keyRoutes,
    webhookRoutes,
    incomingHookRoutes,
    sourceRoutes,
    authRoutes,
    passwordRoutes,
    workspaceRoutes,
    memberRoutes,
    serverRoutes,
    assetRoutes,
    ografExportRoutes,
    graphicRoutes,
  ])
    v1.route('/', routes(deps));

  app.route('/v1', v1);
  app.route('/ograf', ografServerRoutes(deps));
  app.route('/', renderRoutes(deps));
  app.route('/', assetServeRoutes(deps));
  app.route('/', graphicFileRoutes(deps));
  app.route('/', healthRoutes(deps));
  app.route('/', pageRoutes(publicDir));
  return app;
}
