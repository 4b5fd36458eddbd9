/**
 * The checker of OGraf Server API answers (test/helpers/ograf-server-api.ts) against the draft's OpenAPI document:
 * it passes what the document allows and names what it does not (a missing required field, a wrong type, a value
 * outside an enum, a manifest the OGraf JSON schema refuses), so the API tests that rely on it can fail.
 */
import { describe, expect, it } from 'vitest';
import { manifest } from './helpers/ograf-packages.js';
import { answer, component, draftAnswers } from './helpers/ograf-server-api.js';

const renderer = () => ({
  renderer: {
    id: 'ch_1',
    name: 'Studio A',
    status: { status: 'OK' },
    renderTargetSchema: { type: 'object', properties: { layer: { type: 'integer' } } },
    renderTargets: [
      {
        renderTarget: { layer: 20 },
        name: 'Layer 20',
        graphicInstances: [{ graphicInstanceId: 'L20-a', graphic: { id: 'g', name: 'G' } }],
      },
    ],
  },
});
const failures = (method: string, path: string, status: number, body: unknown) =>
  draftAnswers.failures(method, path, status, body);

describe("the draft's answer checker", () => {
  it('passes answers the document allows, extra fields included', () => {
    expect(failures('GET', '/renderers/ch_1', 200, renderer())).toEqual([]);
    expect(failures('GET', '/', 200, { name: 'onair', vendor: 'x' })).toEqual([]);
    expect(failures('GET', '/graphics/g', 200, { graphic: manifest(), manifest: manifest() })).toEqual([]);
    expect(failures('DELETE', '/graphics/g', 200, {})).toEqual([]);
    expect(failures('GET', '/renderers/ch_1/target?renderTarget=%7B%7D', 404, { status: 404 })).toEqual([]);
  });

  it('names a missing required field, through the $refs of the document', () => {
    const body = renderer();
    delete (body.renderer as Partial<typeof body.renderer>).status;
    expect(failures('GET', '/renderers/ch_1', 200, body)).toEqual(['/renderer: missing status']);
    const target = renderer();
    delete (target.renderer.renderTargets[0]!.graphicInstances[0] as { graphic?: unknown }).graphic;
    expect(failures('GET', '/renderers/ch_1', 200, target)).toEqual([
      '/renderer/renderTargets/0/graphicInstances/0: missing graphic',
    ]);
    expect(failures('GET', '/graphics/g', 200, { graphic: manifest() })).toEqual([': missing manifest']);
  });

  it('names a wrong type and a value outside an enum', () => {
    const body = renderer();
    (body.renderer as { renderTargets: unknown }).renderTargets = {};
    body.renderer.status.status = 'FINE';
    expect(failures('GET', '/renderers/ch_1', 200, body)).toEqual([
      '/renderer/status/status: must be one of ["OK","WARNING","ERROR"]',
      '/renderer/renderTargets: must be "array"',
    ]);
    const played = { graphicInstanceId: 'L20-a', statusCode: '200', currentStep: 0 };
    expect(failures('POST', '/renderers/ch_1/target/graphicInstance/playAction', 200, played)).toEqual([
      '/statusCode: must be "number"',
    ]);
    expect(failures('POST', '/renderers/ch_1/target/graphicInstance/load', 404, { status: 'Not found' })).toEqual([
      '/status: must be "integer"',
    ]);
  });

  it("checks a graphic's manifest against the OGraf JSON schema the document names", () => {
    const noId = manifest();
    delete noId.id;
    expect(failures('GET', '/graphics/g', 200, { graphic: noId, manifest: noId })).toEqual(['/graphic: missing id']);
  });

  it('refuses an answer the document lists no schema for, and throws from answer() with the failures', () => {
    expect(() => failures('DELETE', '/graphics/g', 409, {})).toThrow(
      /no JSON answer to DELETE \/graphics\/\{graphicId\} with status 409/,
    );
    expect(() => failures('GET', '/nowhere', 200, {})).toThrow(/no route/);
    expect(() => answer('GET', '/ograf/v1/renderers', 200, { renderers: [{ id: 'ch_1' }] })).toThrow(
      /\/renderers\/0: missing name/,
    );
    expect(() => component('ErrorResponse', { title: 7 })).toThrow(/\/title: must be "string"/);
  });
});
