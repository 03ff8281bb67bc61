import type { SplitDataUrl } from '../images/split-data-url.js';

/** A text field of a multipart form. */
export interface FormField {
  kind: 'field';
  name: string;
  value: string;
}

/** A file of a multipart form, already the base64 data URL the JSON form carries (ImageDataUrlWriter). */
export interface FormFile {
  kind: 'file';
  name: string;
  dataUrl: SplitDataUrl;
}

/** One part of a multipart form as an app hands it to core, in the order the client sent it. */
export type FormPart = FormField | FormFile;
