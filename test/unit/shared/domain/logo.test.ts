import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { cropFromParams, sniffFormat } from '../../../../shared/domain/logo.js';
import { thrown } from '../../support/errors.js';

describe('sniffFormat', () => {
  const images: Record<string, Buffer> = {};

  beforeAll(async () => {
    const pixel = sharp({ create: { width: 2, height: 2, channels: 3, background: '#c00' } });
    images.png = await pixel.clone().png().toBuffer();
    images.jpeg = await pixel.clone().jpeg().toBuffer();
    images.webp = await pixel.clone().webp().toBuffer();
    images.gif = await pixel.clone().gif().toBuffer();
  });

  it.each(['png', 'jpeg', 'webp', 'gif'])('recognises a real %s file', (format) => {
    expect(sniffFormat(images[format]!)).toBe(format);
  });

  it('recognises both GIF versions by their signature', () => {
    expect(sniffFormat(Buffer.from('GIF87a......'))).toBe('gif');
    expect(sniffFormat(Buffer.from('GIF89a......'))).toBe('gif');
    expect(sniffFormat(Buffer.from('GIF88a......'))).toBeUndefined();
  });

  it('needs WEBP after RIFF, not another RIFF format', () => {
    expect(sniffFormat(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('webp');
    expect(sniffFormat(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBeUndefined();
  });

  it.each([
    ['SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>')],
    ['text', Buffer.from('hello')],
    ['an empty file', Buffer.alloc(0)],
    ['a truncated PNG signature', Buffer.from([0x89, 0x50, 0x4e, 0x47])],
    ['a PDF', Buffer.from('%PDF-1.7')],
  ])('refuses %s', (_name, bytes) => {
    expect(sniffFormat(bytes)).toBeUndefined();
  });
});

describe('cropFromParams', () => {
  const params = (entries: Record<string, string>) => new Map(Object.entries(entries));

  it('answers undefined without crop parameters', () => {
    expect(cropFromParams(new Map())).toBeUndefined();
    expect(cropFromParams(params({ other: '1' }))).toBeUndefined();
  });

  it('reads the four integers', () => {
    expect(cropFromParams(params({ x: '0', y: '10', width: '256', height: '300' }))).toEqual({
      x: 0,
      y: 10,
      width: 256,
      height: 300,
    });
    expect(cropFromParams(params({ x: '999999', y: '0', width: '1', height: '1' }))?.x).toBe(999_999);
  });

  it.each<Record<string, string>>([
    { x: '0' },
    { x: '0', y: '0', width: '10' },
    { width: '10', height: '10' },
  ])('refuses a partial crop %j', (entries) => {
    expect(thrown(() => cropFromParams(params(entries)))).toMatchObject({
      kind: 'validation',
      field: 'crop',
      message: 'Give all of x, y, width and height for the crop, or none of them.',
    });
  });

  it.each([
    ['x', '-1'],
    ['y', '1.5'],
    ['width', 'abc'],
    ['height', ''],
    ['x', '1000000'],
    ['y', ' 1'],
  ])('refuses %s=%j', (name, value) => {
    const entries = { x: '0', y: '0', width: '10', height: '10', [name]: value };
    expect(thrown(() => cropFromParams(params(entries)))).toMatchObject({
      kind: 'validation',
      field: 'crop',
      message: `${name} must be a whole number of pixels.`,
    });
  });

  it.each([
    ['width', '0'],
    ['height', '0'],
  ])('refuses %s=0', (name, value) => {
    const entries = { x: '0', y: '0', width: '10', height: '10', [name]: value };
    expect(thrown(() => cropFromParams(params(entries)))).toMatchObject({
      kind: 'validation',
      field: 'crop',
      message: 'The crop must be at least 1 pixel wide and high.',
    });
  });
});
