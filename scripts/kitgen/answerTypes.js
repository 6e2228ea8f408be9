// The kit contract's JSON Schemas read as types, for the generators that write one named type per record (PHP array
// shapes, Ruby structs): every closed object of an answer becomes a named record, equal objects share one name (a
// world's clock is a TestClock), and an answer that is also written back as it was read (a scenario, a snapshot) stays
// a document, the parsed JSON, so nothing is lost on its way back.

/**
 * A type: { kind: 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'any' }, { kind: 'enum', values },
 * { kind: 'list', items }, { kind: 'map', values }, { kind: 'record', name }, { kind: 'shape', fields } (an inline
 * object, for inputs) or { kind: 'union', types }. A field: { wire, type, required, description }.
 */

const scalarKinds = new Set(['string', 'integer', 'number', 'boolean', 'null']);

/** `attempts` → `Attempt`: the name of one item of a list field. */
function singular(word) {
  return word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

function pascal(word) {
  return word
    .replace(/(^|[_-])([a-z])/g, (_, _sep, letter) => letter.toUpperCase())
    .replace(/^[a-z]/, (c) => c.toUpperCase());
}

/** The answers read with GET from a path that takes them back with PUT: documents, kept as the parsed JSON. */
export function documentAnswers(contract) {
  const written = new Set(contract.operations.filter((op) => op.method === 'PUT' && op.body).map((op) => op.path));
  return new Set(
    contract.operations.filter((op) => op.method === 'GET' && op.answer && written.has(op.path)).map((op) => op.answer),
  );
}

/** Is this schema a closed object with named fields (a record, or an inline shape for inputs)? */
function isClosedObject(schema) {
  return (
    schema.type === 'object' && schema.additionalProperties === false && Object.keys(schema.properties ?? {}).length > 0
  );
}

/**
 * The records of every answer, and each answer's type: { records: [{ name, description, fields }], answers: Map of
 * answer name → type, documents: Set of answer names }. Records come in the order they are first met, answers first.
 */
export function answerTypes(contract) {
  const documents = documentAnswers(contract);
  const named = new Map();
  const records = [];
  // Every top-level answer keeps its own name, whatever nests it.
  for (const [name, schema] of Object.entries(contract.answers))
    if (!documents.has(name) && isClosedObject(schema)) named.set(JSON.stringify(schema), name);

  function record(name, schema, description) {
    const entry = { name, description, fields: [] };
    records.push(entry);
    const required = new Set(schema.required ?? []);
    const properties = Object.entries(schema.properties);
    for (const [wire, property] of properties) {
      const list = property.type === 'array' && typeof property.items === 'object';
      const nestedName = `${name}${pascal(list ? singular(wire) : wire)}`;
      // Fields of one shape share its record (an account's live and sandbox sides): the comment names them all.
      const key = JSON.stringify(list ? property.items : property);
      const sharing = properties
        .filter(([, other]) => JSON.stringify(other.type === 'array' ? other.items : other) === key)
        .map(([other]) => `\`${other}\``)
        .join(' and ');
      entry.fields.push({
        wire,
        type: typeOf(property, nestedName, list ? `One item of ${name}'s ${sharing}.` : `${name}'s ${sharing}.`),
        required: required.has(wire),
        description: property.description ?? '',
      });
    }
    return entry;
  }

  function typeOf(schema, nameIfRecord, descriptionIfRecord) {
    const variants = schema.anyOf ?? schema.oneOf;
    if (variants) return union(variants.map((variant) => typeOf(variant, nameIfRecord, descriptionIfRecord)));
    if (schema.const !== undefined)
      return typeof schema.const === 'string'
        ? { kind: 'enum', values: [schema.const] }
        : { kind: typeof schema.const };
    if (Array.isArray(schema.type))
      return union(schema.type.map((type) => typeOf({ ...schema, type }, nameIfRecord, descriptionIfRecord)));
    if (schema.enum && schema.enum.every((value) => typeof value === 'string'))
      return { kind: 'enum', values: schema.enum };
    if (schema.type === 'array')
      return {
        kind: 'list',
        items:
          typeof schema.items === 'object' ? typeOf(schema.items, nameIfRecord, descriptionIfRecord) : { kind: 'any' },
      };
    if (schema.type === 'object') {
      if (isClosedObject(schema)) {
        const key = JSON.stringify(schema);
        if (!named.has(key)) named.set(key, nameIfRecord);
        const name = named.get(key);
        if (!records.some((entry) => entry.name === name)) record(name, schema, descriptionIfRecord);
        return { kind: 'record', name };
      }
      return {
        kind: 'map',
        values:
          typeof schema.additionalProperties === 'object'
            ? typeOf(schema.additionalProperties, nameIfRecord, descriptionIfRecord)
            : { kind: 'any' },
      };
    }
    if (scalarKinds.has(schema.type)) return { kind: schema.type };
    return { kind: 'any' };
  }

  const answers = new Map();
  for (const [name, schema] of Object.entries(contract.answers)) {
    if (documents.has(name)) answers.set(name, { kind: 'map', values: { kind: 'any' } });
    else answers.set(name, typeOf(schema, name, answeredBy(contract, name)));
  }
  return { records, answers, documents };
}

/** The operations that answer `name`, as a sentence for its type's doc comment. */
function answeredBy(contract, name) {
  const operations = contract.operations.filter((op) => op.answer === name);
  const calls = operations.map((op) => `${op.id} (\`${op.method} ${op.path}\`${op.pages ? ', a page of them' : ''})`);
  return calls.length === 0
    ? `The control API's ${name}.`
    : `What ${calls.join(', ')} answer${calls.length > 1 ? '' : 's'}.`;
}

/** An input's JSON Schema as a type whose closed objects are inline shapes (the arguments a method documents). */
export function inputType(schema) {
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return union(variants.map(inputType));
  if (schema.const !== undefined)
    return typeof schema.const === 'string' ? { kind: 'enum', values: [schema.const] } : { kind: typeof schema.const };
  if (Array.isArray(schema.type)) return union(schema.type.map((type) => inputType({ ...schema, type })));
  if (schema.enum && schema.enum.every((value) => typeof value === 'string'))
    return { kind: 'enum', values: schema.enum };
  if (schema.type === 'array')
    return { kind: 'list', items: typeof schema.items === 'object' ? inputType(schema.items) : { kind: 'any' } };
  if (schema.type === 'object') {
    if (Object.keys(schema.properties ?? {}).length > 0) {
      const required = new Set(schema.required ?? []);
      return {
        kind: 'shape',
        fields: Object.entries(schema.properties).map(([wire, property]) => ({
          wire,
          type: inputType(property),
          required: required.has(wire),
          description: property.description ?? '',
        })),
      };
    }
    return {
      kind: 'map',
      values:
        typeof schema.additionalProperties === 'object' ? inputType(schema.additionalProperties) : { kind: 'any' },
    };
  }
  if (scalarKinds.has(schema.type)) return { kind: schema.type };
  return { kind: 'any' };
}

/** A union with nested unions flattened and repeats dropped (`any` swallows the rest). */
function union(types) {
  const flat = types.flatMap((type) => (type.kind === 'union' ? type.types : [type]));
  if (flat.some((type) => type.kind === 'any')) return { kind: 'any' };
  const seen = new Map(flat.map((type) => [JSON.stringify(type), type]));
  const unique = [...seen.values()];
  return unique.length === 1 ? unique[0] : { kind: 'union', types: unique };
}
