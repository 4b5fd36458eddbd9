import { describe, expect, it } from 'vitest';
import { mergeOverrides, parseTemplateData } from './template-data.js';

describe('parseTemplateData', () => {
  it('reads a JSON object, keeping plain values', () => {
    expect(parseTemplateData('{"f0":"Jane","score":3,"show":true,"x":null}')).toEqual({
      f0: 'Jane',
      score: 3,
      show: true,
      x: null,
    });
  });

  it('rejects JSON that is not an object', () => {
    expect(() => parseTemplateData('[1,2]')).toThrow();
    expect(() => parseTemplateData('{oops')).toThrow();
  });

  it('reads CasparCG templateData XML, decoding entities', () => {
    const xml = `<templateData>
      <componentData id="f0"><data id="text" value="Jane &amp; John &#x263A;" /></componentData>
      <componentData id='f1'><data id='text' value='&lt;b&gt; &quot;hi&quot;'/></componentData>
    </templateData>`;
    expect(parseTemplateData(xml)).toEqual({ f0: 'Jane & John ☺', f1: '<b> "hi"' });
  });

  it('falls back to the first data value when there is no text entry', () => {
    const xml = '<templateData><componentData id="c"><data id="color" value="#f00"/></componentData></templateData>';
    expect(parseTemplateData(xml)).toEqual({ c: '#f00' });
  });

  it('treats empty data as no change', () => {
    expect(parseTemplateData('  ')).toEqual({});
  });
});

describe('mergeOverrides', () => {
  it('merges values and drops an override set to null', () => {
    expect(mergeOverrides({ a: '1', b: '2' }, { b: null, c: 3 })).toEqual({ a: '1', c: 3 });
  });
});
