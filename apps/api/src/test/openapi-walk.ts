// Walks an OpenAPI 3 document and reports schemas that tell an integrator nothing: an empty
// schema `{}`, an object with neither properties nor a typed additionalProperties, an array whose
// items are empty. Request bodies, parameters and every response body are walked, following
// $refs into components.

type Schema = Record<string, unknown>;
interface Doc {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}
interface Operation {
  parameters?: Array<{ name: string; in: string; schema?: Schema; content?: Record<string, { schema?: Schema }> }>;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

export interface Finding {
  method: string;
  path: string;
  /** JSON pointer into the document where the schema is (inside a component after a $ref). */
  pointer: string;
  problem: string;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);
/** Keywords that say what a value is; a schema with none of them accepts anything. */
const DESCRIBING = ['type', '$ref', 'anyOf', 'oneOf', 'allOf', 'enum', 'const', 'not', 'properties', 'items'];

const escape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);
const describes = (s: Schema) => DESCRIBING.some((k) => k in s);

/** `method path pointer: problem`, the line a failing test prints. */
export const findingLine = (f: Finding) => `${f.method.toUpperCase()} ${f.path} ${f.pointer}: ${f.problem}`;

export function emptySchemaFindings(doc: Doc): Finding[] {
  const findings: Finding[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const at = `/paths/${escape(path)}/${method}`;
      const report = (pointer: string, problem: string): void => {
        findings.push({ method, path, pointer, problem });
      };
      const seen = new Set<string>();

      const walk = (schema: unknown, pointer: string): void => {
        if (!isSchema(schema)) return report(pointer, 'no schema');
        if (typeof schema.$ref === 'string') {
          const ref = schema.$ref;
          if (seen.has(ref)) return;
          seen.add(ref);
          const name = /^#\/components\/schemas\/(.+)$/.exec(ref)?.[1];
          const target = name === undefined ? undefined : doc.components?.schemas?.[name];
          if (!target) return report(pointer, `$ref ${ref} points nowhere`);
          return walk(target, `/components/schemas/${escape(name!)}`);
        }
        if (!describes(schema)) return report(pointer, 'empty schema');
        const props = isSchema(schema.properties) ? schema.properties : undefined;
        const extra = schema.additionalProperties;
        if (schema.type === 'object' && (!props || Object.keys(props).length === 0) && !(isSchema(extra) && describes(extra))) {
          report(pointer, 'object with neither properties nor a typed additionalProperties');
        }
        if (schema.type === 'array' && !(isSchema(schema.items) && Object.keys(schema.items).length > 0)) report(pointer, 'array whose items are empty');
        for (const [name, sub] of Object.entries(props ?? {})) walk(sub, `${pointer}/properties/${escape(name)}`);
        if (isSchema(schema.items)) walk(schema.items, `${pointer}/items`);
        if (isSchema(extra)) walk(extra, `${pointer}/additionalProperties`);
        if (isSchema(schema.not)) walk(schema.not, `${pointer}/not`);
        for (const key of ['anyOf', 'oneOf', 'allOf']) {
          const list = schema[key];
          if (Array.isArray(list)) list.forEach((sub, i) => walk(sub, `${pointer}/${key}/${i}`));
        }
      };

      (op.parameters ?? []).forEach((p, i) => {
        if (p.schema) walk(p.schema, `${at}/parameters/${i}/schema`);
        for (const [type, media] of Object.entries(p.content ?? {})) walk(media.schema, `${at}/parameters/${i}/content/${escape(type)}/schema`);
      });
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) walk(media.schema, `${at}/requestBody/content/${escape(type)}/schema`);
      const responses = Object.entries(op.responses ?? {});
      if (!responses.some(([status]) => /^[23]/.test(status))) report(`${at}/responses`, 'no success response');
      for (const [status, res] of responses) {
        for (const [type, media] of Object.entries(res.content ?? {})) walk(media.schema, `${at}/responses/${status}/content/${escape(type)}/schema`);
      }
    }
  }
  return findings;
}

/** Every property path of each request body (`admin.email`, `policies.kind`), for the label check. */
export function requestBodyFields(doc: Doc): Array<{ method: string; path: string; field: string[] }> {
  const out: Array<{ method: string; path: string; field: string[] }> = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const seen = new Set<string>();
      const walk = (schema: unknown, field: string[]): void => {
        if (!isSchema(schema)) return;
        if (typeof schema.$ref === 'string') {
          if (seen.has(schema.$ref)) return;
          seen.add(schema.$ref);
          return walk(doc.components?.schemas?.[schema.$ref.split('/').pop() ?? ''], field);
        }
        for (const [name, sub] of Object.entries(isSchema(schema.properties) ? schema.properties : {})) {
          out.push({ method, path, field: [...field, name] });
          walk(sub, [...field, name]);
        }
        if (isSchema(schema.items)) walk(schema.items, field);
        for (const key of ['anyOf', 'oneOf', 'allOf']) {
          const list = schema[key];
          if (Array.isArray(list)) list.forEach((sub) => walk(sub, field));
        }
      };
      for (const media of Object.values(op.requestBody?.content ?? {})) walk(media.schema, []);
    }
  }
  return out;
}
