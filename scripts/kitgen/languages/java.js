// The Java kit's generated surface (kits/java, package dev.smsemulator.junit): the control client `Control` (one method
// per contract operation and shortcut), a Java 17 record per answer shape with a reader of its JSON, and `KitSettings`
// (the shared defaults and the duration grammar). The hand-kept rest of the kit (transport, world, catcher, JUnit glue)
// builds on these; docs/decisions/0003-one-facade.md says what is generated and what is not.
import { generatedMark } from '../generatedKitFiles.js';
import { controlReference } from '../controlReference.js';

const folder = 'kits/java/src/main/java/dev/smsemulator/junit/';
const packageLine = 'package dev.smsemulator.junit;';

/**
 * Java names of answer shapes that users already call by another name than the contract's: `ClockView` is what a
 * world's clock answers (the contract's `TestClock`), so the main clock's answer (`Clock`, which has no id, name or
 * accounts) is `MainClockView`; `Clock` alone would also shadow java.time.Clock.
 */
const answerNames = {
  Clock: 'MainClockView',
  TestClock: 'ClockView',
  World: 'WorldView',
  Wait: 'WaitResult',
  Signature: 'SignatureResult',
};

/**
 * Names of nested shapes users already call, by `<contract answer>.<property>`; any other nested shape is a record
 * nested in its owner, named after its property in the singular (`ReceiverReport.checks` items: `ReceiverReport.Check`).
 */
const nestedNames = {
  'Clock.incidents': 'Incident',
  'Clock.run': 'ClockRun',
  'Account.live': 'AccountEnvironment',
  'ControlMessage.history': 'StatusChange',
  'ControlMessage.legs': 'Leg',
  'WebhookEvent.attempts': 'WebhookAttempt',
  'Spend.top': 'Spender',
};

/**
 * How each shortcut of the contract calls its operation, by the last part of its id (`clock.advance` is `advance`):
 * the contract names a shortcut and its operation, the handle's code fills the arguments. A shortcut with no form here
 * stops the generator, so a new one is given its Java form on purpose.
 */
const shortcutForms = {
  now: { reads: 'now' },
  advance: {
    args: [
      { name: 'duration', field: 'advance', doc: 'how far: a Duration, the emulator\'s text ("15m") or milliseconds' },
    ],
  },
  set: { args: [{ name: 'instant', field: 'set', doc: 'an Instant, or ISO 8601 text' }] },
  configure: { settings: true },
  runUntilIdle: {
    constants: { runUntilIdle: true },
    args: [
      {
        name: 'limit',
        field: 'limit',
        doc: "the most clock time to run: a Duration or the emulator's text; null: no limit",
      },
    ],
  },
  next: { constants: { next: true } },
};

/** An input with at most this many fields also gets positional overloads (required fields first, then the rest). */
const positionalFields = 3;

/** Java names of answer fields whose JSON name is a Java keyword (a cost trigger's `char`). */
const keywordFields = { char: 'character' };

const javaKeywords = new Set(
  'abstract assert boolean break byte case catch char class const continue default do double else enum extends final finally float for goto if implements import instanceof int interface long native new package private protected public return short static strictfp super switch synchronized this throw throws transient try void volatile while record var yield'.split(
    ' ',
  ),
);

const pascal = (text) => text.charAt(0).toUpperCase() + text.slice(1);
const camel = (name) => name.replace(/[_-]([a-z0-9])/g, (_, c) => c.toUpperCase());
const singular = (name) => (/[^su]s$/.test(name) && name.length > 3 ? name.slice(0, -1) : name);
const quoted = (text) => JSON.stringify(text);

/** A contract text (summary, description) as javadoc HTML: `code` as <code>, markup and at-signs escaped. */
function docText(text) {
  const escape = (part) =>
    part
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/@/g, '&#64;')
      .replace(/\*\//g, '*&#47;');
  return text
    .split(/(`[^`]+`)/)
    .map((part) => (/^`[^`]+`$/.test(part) ? `<code>${escape(part.slice(1, -1))}</code>` : escape(part)))
    .join('');
}

/** Javadoc lines at an indent, words wrapped at 118 columns. */
function javadoc(indent, paragraphs) {
  const width = 118 - indent.length - 3;
  const lines = [];
  for (const [index, paragraph] of paragraphs.filter(Boolean).entries()) {
    if (index > 0 && !paragraph.startsWith('@')) lines.push('<p>');
    let line = '';
    for (const word of paragraph.split(/\s+/)) {
      if (line && line.length + 1 + word.length > width) {
        lines.push(line);
        line = paragraph.startsWith('@') ? `    ${word}` : word;
      } else line = line ? `${line} ${word}` : word;
    }
    if (line) lines.push(line);
  }
  return [`${indent}/**`, ...lines.map((line) => `${indent} * ${line}`), `${indent} */`].join('\n');
}

const fileHeader = `// ${generatedMark}\n`;

// ---- answer shapes: JSON Schema to Java types

/** The schema without its prose, so two shapes that differ only in their descriptions are one type. */
function shapeKey(schema) {
  return JSON.stringify(schema, (key, value) => (key === 'description' ? undefined : value));
}

/**
 * The record shape of a nullable object (`anyOf: [{object}, {type: 'null'}]`, as zod writes `.nullable()`), or
 * undefined: such a field is that record or null (a cost's `fix`), not a union.
 */
function nullableRecord(schema) {
  const branches = schema?.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2) return undefined;
  const shape = branches.find((branch) => branch.type !== 'null');
  const none = branches.find((branch) => branch.type === 'null' && Object.keys(branch).length === 1);
  return none !== undefined && isRecordShape(shape) ? shape : undefined;
}

/**
 * Whether a shape is a record: a closed object a record can express whole. A document with unions (`anyOf`) or maps of
 * named values in it (a scenario, a snapshot) is read as a Map whole, as the user writes it back.
 */
function isRecordShape(schema) {
  const expressible = (part) =>
    typeof part !== 'object' ||
    part === null ||
    nullableRecord(part) !== undefined ||
    (['anyOf', 'oneOf', 'allOf', 'prefixItems'].every((key) => !(key in part)) &&
      (typeof part.additionalProperties !== 'object' || part.additionalProperties === null) &&
      Object.entries(part).every(([key, value]) => key === 'enum' || expressible(value)));
  return (
    schema?.type === 'object' &&
    schema.properties !== undefined &&
    Array.isArray(schema.required) &&
    expressible(schema)
  );
}
const typesOf = (schema) => (Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []);

/** Every record the answers need, with the Java name of each answer: { records: Map<name, record>, answers }. */
function answerModel(contract) {
  const byShape = new Map();
  const records = new Map();
  const claim = (name, schema, answer) => {
    if (records.has(name)) throw new Error(`kitgen java: two shapes want the record name ${name}; give one a name`);
    const record = { name, schema, answer, fields: [] };
    records.set(name, record);
    byShape.set(shapeKey(schema), record);
    return record;
  };
  const answers = {};
  for (const [answer, schema] of Object.entries(contract.answers))
    if (isRecordShape(schema) && !byShape.has(shapeKey(schema))) claim(answerNames[answer] ?? answer, schema, answer);

  function type(schema, owner, property, path) {
    const shape = nullableRecord(schema);
    if (shape !== undefined) return { ...type(shape, owner, property, path), nullable: true };
    const types = typesOf(schema);
    const nullable = types.includes('null');
    const base = types.filter((each) => each !== 'null');
    if (schema.anyOf !== undefined || base.length !== 1) return { kind: 'any', nullable };
    const [only] = base;
    if (only === 'string') return { kind: 'string', nullable, values: schema.enum };
    if (only === 'boolean') return { kind: 'boolean', nullable };
    if (only === 'number') return { kind: 'number', nullable };
    if (only === 'integer')
      return { kind: /epoch milliseconds/.test(schema.description ?? '') ? 'instant' : 'integer', nullable };
    if (only === 'array') return { kind: 'list', nullable, item: type(schema.items ?? {}, owner, property, path) };
    if (only === 'object') {
      if (!isRecordShape(schema)) return { kind: 'map', nullable };
      const known = byShape.get(shapeKey(schema));
      if (known !== undefined) return { kind: 'record', nullable, name: known.name };
      const name = nestedNames[path] ?? `${owner}.${pascal(singular(camel(property)))}`;
      visit(claim(name, schema, undefined));
      return { kind: 'record', nullable, name };
    }
    return { kind: 'any', nullable };
  }

  function visit(record) {
    const contractName = record.answer ?? record.name.split('.')[0];
    for (const [property, schema] of Object.entries(record.schema.properties)) {
      const name = keywordFields[property] ?? camel(property.replace(/^\$/, ''));
      if (javaKeywords.has(name)) throw new Error(`kitgen java: ${record.name}.${property} is a Java keyword`);
      const pathRoot = record.answer ?? Object.keys(nestedNames).find((key) => nestedNames[key] === record.name);
      const path = `${pathRoot ?? contractName}.${property}`;
      record.fields.push({
        json: property,
        name,
        required: record.schema.required.includes(property),
        description: schema.description,
        type: type(schema, record.name, property, path),
      });
    }
  }

  for (const record of [...records.values()]) visit(record);
  for (const [answer, schema] of Object.entries(contract.answers)) {
    if (isRecordShape(schema)) answers[answer] = { kind: 'record', name: byShape.get(shapeKey(schema)).name };
    else answers[answer] = type(schema, answer, answer, answer);
  }
  return { records, answers };
}

const boxed = { long: 'Long', double: 'Double', boolean: 'Boolean' };

/** The Java type of a field: primitives when the field is always there and never null. */
function javaType(type, present) {
  const primitive = { integer: 'long', number: 'double', boolean: 'boolean' }[type.kind];
  if (primitive !== undefined) return present && !type.nullable ? primitive : boxed[primitive];
  if (type.kind === 'string') return 'String';
  if (type.kind === 'instant') return 'Instant';
  if (type.kind === 'list') return `List<${javaType(type.item, false)}>`;
  if (type.kind === 'map') return 'Map<String, Object>';
  if (type.kind === 'record') return type.name;
  return 'Object';
}

/** A function of one parsed JSON value to the type (for list items and pages). */
function itemReader(type) {
  if (type.kind === 'record') return `${type.name}::fromJson`;
  const reader = {
    string: 'Json::asString',
    integer: 'Json::asLong',
    number: 'Json::asDouble',
    boolean: 'Json::asBoolean',
    instant: 'Json::asInstant',
    map: 'Json::asMap',
  }[type.kind];
  if (reader !== undefined) return reader;
  if (type.kind === 'list') return `item -> Json.asList(item, ${itemReader(type.item)})`;
  return 'item -> item';
}

/** The expression reading a field from the record's parsed object {@code json}. */
function fieldReader(field) {
  const { type } = field;
  const strict = field.required && !type.nullable;
  const key = quoted(field.json);
  if (type.kind === 'list') return `Json.list(json, ${key}, ${itemReader(type.item)})`;
  if (type.kind === 'any') return `json.get(${key})`;
  if (type.kind === 'record') return `Json.field(json, ${key}, ${strict}, ${type.name}::fromJson)`;
  const primitive = { integer: 'long', number: 'double', boolean: 'boolean' }[type.kind];
  if (primitive !== undefined && strict) return `Json.${primitive}Field(json, ${key})`;
  return `Json.field(json, ${key}, ${strict}, ${itemReader(type)})`;
}

function fieldDoc(field) {
  const parts = [field.description ? docText(field.description) : `The answer's <code>${docText(field.json)}</code>.`];
  if (field.type.values)
    parts.push(`One of ${field.type.values.map((value) => `<code>${docText(value)}</code>`).join(', ')}.`);
  if (field.type.kind === 'instant') parts.push('Read from epoch milliseconds.');
  if (!field.required) parts.push('Null when the answer leaves it out.');
  else if (field.type.nullable) parts.push('May be null.');
  return `@param ${field.name} ${parts.join(' ')}`;
}

function recordSource(record, model, operationsByAnswer, indent) {
  const inner = `${indent}  `;
  const simple = record.name.split('.').pop();
  const answeredBy = record.answer ? (operationsByAnswer.get(record.answer) ?? []) : [];
  const summary = record.answer
    ? `The control API's <code>${record.answer}</code> answer${answeredBy.length ? `, of ${answeredBy.map((name) => `{@link Control#${name}}`).join(', ')}` : ''}.`
    : `The <code>${docText(record.name)}</code> part of an answer.`;
  const lines = [
    javadoc(indent, [
      summary,
      record.schema.description && docText(record.schema.description),
      ...record.fields.map(fieldDoc),
    ]),
  ];
  const components = record.fields.map((field) => `${javaType(field.type, field.required)} ${field.name}`);
  lines.push(`${indent}public record ${simple}(`);
  lines.push(components.map((component) => `${indent}    ${component}`).join(',\n') + ') {');
  lines.push(
    `${inner}/** Reads the answer from its parsed JSON ({@link Json#parse}); a required field missing is an error. */`,
  );
  lines.push(`${inner}static ${simple} fromJson(Object value) {`);
  lines.push(`${inner}  Map<String, Object> json = Json.asMap(value);`);
  lines.push(`${inner}  return new ${simple}(`);
  lines.push(record.fields.map((field) => `${inner}      ${fieldReader(field)}`).join(',\n') + ');');
  lines.push(`${inner}}`);
  for (const nested of model.records.values())
    if (nested.name.startsWith(`${record.name}.`) && !nested.name.slice(record.name.length + 1).includes('.'))
      lines.push('', recordSource(nested, model, operationsByAnswer, inner));
  lines.push(`${indent}}`);
  return lines.join('\n');
}

function recordFile(record, model, operationsByAnswer) {
  const body = recordSource(record, model, operationsByAnswer, '');
  const imports = ['java.time.Instant', 'java.util.List', 'java.util.Map'].filter((name) =>
    new RegExp(`\\b${name.split('.').pop()}\\b`).test(body.replace(/\{@link [^}]*\}/g, '')),
  );
  return {
    path: `${folder}${record.name}.java`,
    text: `${fileHeader}${packageLine}\n\n${imports.map((name) => `import ${name};\n`).join('')}${imports.length ? '\n' : ''}${body}\n`,
  };
}

// ---- the control client

/** How an answer is returned: its Java type and the expression reading the parsed answer `answer`. */
function answerReturn(model, answerName, pages) {
  if (answerName === null) return { type: 'void' };
  const type = model.answers[answerName];
  if (pages)
    return { type: `Page<${javaType(type, false)}>`, read: (call) => `Page.read(${call}, ${itemReader(type)})` };
  if (type.kind === 'record') return { type: type.name, read: (call) => `${type.name}.fromJson(${call})` };
  if (type.kind === 'integer') return { type: 'long', read: (call) => `Json.asLong(${call})` };
  if (type.kind === 'map') return { type: 'Map<String, Object>', read: (call) => `Json.asMap(${call})` };
  return { type: javaType(type, true), read: (call) => `${itemReader(type)}.apply(${call})` };
}

/** The Java parameter of one input field for a positional overload. */
function inputParameter(property, schema) {
  const types = typesOf(schema);
  const doc = [schema.description && docText(schema.description)];
  let type = 'Object';
  if (types.length === 2 && types.includes('string') && types.includes('number')) {
    doc.push('A duration: a Duration, the emulator\'s text (<code>"15m"</code>) or milliseconds.');
  } else if (types.length === 1 && types[0] === 'string') type = 'String';
  else if (types.length === 1 && types[0] === 'integer') type = 'Long';
  else if (types.length === 1 && types[0] === 'number') type = 'Double';
  else if (types.length === 1 && types[0] === 'boolean') type = 'Boolean';
  else if (types.length === 1 && types[0] === 'array') type = 'List<?>';
  if (schema.enum)
    doc.push(`One of ${schema.enum.map((value) => `<code>${docText(String(value))}</code>`).join(', ')}.`);
  return { name: camel(property), json: property, type, doc: doc.filter(Boolean).join(' ') };
}

/** One line per field of an input schema, for the javadoc of a method that takes it as a map. */
function inputFieldsDoc(schema) {
  return Object.entries(schema.properties ?? {})
    .map(([property, field]) => {
      const required = (schema.required ?? []).includes(property) ? ' (required)' : '';
      const what =
        typesOf(field).join(' or ') ||
        (field.anyOf ? field.anyOf.map((each) => typesOf(each).join(' or ')).join(' or ') : 'any');
      const values = field.enum ? `: ${field.enum.map((value) => String(value)).join(', ')}` : '';
      const description = field.description ? `: ${docText(field.description)}` : '';
      return `<code>${docText(property)}</code>${required} ${what}${docText(values)}${description}`;
    })
    .join('; ');
}

function pathExpression(operation) {
  const parts = operation.path.split(/(\{[^}]+\})/).filter(Boolean);
  return parts.map((part) => (/^\{.+\}$/.test(part) ? `quote(${camel(part.slice(1, -1))})` : quoted(part))).join(' + ');
}

function controlMethods(operation, model) {
  const name = operation.names.java;
  const answer = answerReturn(model, operation.answer, operation.pages);
  const pathParams = operation.params.map((param) => ({
    name: camel(param),
    type: 'String',
    doc: `the <code>${param}</code> of the path`,
  }));
  const title = `<code>${operation.method} ${docText(operation.path)}</code>: ${docText(operation.summary)}`;
  const filtered = operation.pages || operation.query.length > 1;
  const methods = [];

  const emit = (params, docs, pathAndQuery, body) => {
    const call = `call(${quoted(operation.method)}, ${pathAndQuery}, ${body})`;
    const statement = answer.type === 'void' ? `${call};` : `return ${answer.read(call)};`;
    const returns =
      answer.type === 'void' ? [] : [`@return ${operation.pages ? 'one page of the list' : 'the answer'}`];
    methods.push(
      [
        javadoc('  ', [title, ...docs, ...params.map((param) => `@param ${param.name} ${param.doc}`), ...returns]),
        `  public ${answer.type} ${name}(${params.map((param) => `${param.type} ${param.name}`).join(', ')}) {`,
        `    ${statement}`,
        '  }',
      ].join('\n'),
    );
  };

  const path = pathExpression(operation);
  let queries = [{ params: [], query: '' }];
  if (filtered) {
    const names = [...operation.query, ...(operation.pages ? ['page', 'limit'] : [])];
    const filter = {
      name: 'filter',
      type: 'Map<String, ?>',
      doc: `the query, any of ${names.map((each) => `<code>${each}</code>`).join(', ')}`,
    };
    queries = [{ params: [filter], query: ' + query(filter)' }];
    if (!operation.body) queries.unshift({ params: [], query: '', plain: true });
  } else if (operation.query.length === 1) {
    const [only] = operation.query;
    queries = [
      {
        params: [{ name: camel(only), type: 'String', doc: `the <code>${only}</code> query parameter, or null` }],
        query: ` + query(fields(${quoted(only)}, ${camel(only)}))`,
      },
    ];
  }

  for (const { params: queryParams, query, plain } of queries) {
    const at = `${path}${query}`;
    const note = plain ? ['With no filter: the first page.'] : [];
    if (!operation.body) {
      emit([...pathParams, ...queryParams], note, at, 'null');
      continue;
    }
    const input = operation.input;
    if (operation.bodyText || input === undefined || input.properties === undefined) {
      const body = {
        name: 'body',
        type: 'Object',
        doc: operation.bodyText
          ? 'a Map (sent as JSON) or YAML or JSON text'
          : 'the JSON body: a Map (values may be Duration, sent as milliseconds, and Instant, sent as ISO 8601 text)',
      };
      emit([...pathParams, body, ...queryParams], note, at, 'body');
      continue;
    }
    const properties = Object.entries(input.properties);
    const required = input.required ?? [];
    if (properties.length > 1) {
      emit(
        [
          ...pathParams,
          {
            name: 'body',
            type: 'Map<String, ?>',
            doc: "the body's fields (Duration values are sent as milliseconds, Instant ones as ISO 8601 text)",
          },
          ...queryParams,
        ],
        [`Fields: ${inputFieldsDoc(input)}.`],
        at,
        'body',
      );
    }
    if (properties.length <= positionalFields) {
      const ordered = [
        ...properties.filter(([p]) => required.includes(p)),
        ...properties.filter(([p]) => !required.includes(p)),
      ];
      const fieldParams = ordered.map(([property, schema]) => inputParameter(property, schema));
      const bodyOf = (chosen) => `fields(${chosen.map((param) => `${quoted(param.json)}, ${param.name}`).join(', ')})`;
      const optionalNote = (chosen) =>
        chosen.some((param) => !required.includes(param.json)) ? ['An optional field given as null is left out.'] : [];
      const requiredOnly = fieldParams.filter((param) => required.includes(param.json));
      if (requiredOnly.length < fieldParams.length)
        emit(
          [...pathParams, ...requiredOnly, ...queryParams],
          ['The optional fields left out.'],
          at,
          requiredOnly.length ? bodyOf(requiredOnly) : 'Map.of()',
        );
      emit(
        [
          ...pathParams,
          ...fieldParams.map((param) => ({ ...param, doc: param.doc || `the <code>${param.json}</code> field` })),
        ],
        optionalNote(fieldParams),
        at,
        bodyOf(fieldParams),
      );
    }
  }
  return methods;
}

function shortcutMethod(shortcut, operationsById) {
  const via = operationsById.get(shortcut.via);
  if (via === undefined)
    throw new Error(`kitgen java: shortcut ${shortcut.id} goes via ${shortcut.via}, which the contract lacks`);
  const form = shortcutForms[shortcut.id.split('.').pop()];
  if (form === undefined)
    throw new Error(`kitgen java: no Java form for the shortcut ${shortcut.id}; add one to shortcutForms`);
  const pathParams = via.params.map((param) => ({
    name: camel(param),
    type: 'String',
    doc: `the <code>${param}</code> of the path`,
  }));
  const viaName = via.names.java;
  const title = `Shortcut of {@link #${viaName}}: ${docText(shortcut.summary)}`;
  const args = pathParams.map((param) => param.name);
  let params = pathParams;
  let returns;
  let statement;
  if (form.reads) {
    returns = 'Instant';
    statement = `return ${viaName}(${args.join(', ')}).${form.reads}();`;
  } else {
    const own = form.settings
      ? [{ name: 'settings', type: 'Map<String, ?>', doc: 'the fields to change' }]
      : (form.args ?? []).map((arg) => ({ name: arg.name, type: 'Object', doc: arg.doc, field: arg.field }));
    params = [...pathParams, ...own];
    const pairs = [
      ...Object.entries(form.constants ?? {}).map(([field, value]) => `${quoted(field)}, ${JSON.stringify(value)}`),
      ...own.filter((param) => param.field).map((param) => `${quoted(param.field)}, ${param.name}`),
    ];
    const body = form.settings ? 'settings' : `fields(${pairs.join(', ')})`;
    returns = null;
    statement = `return ${viaName}(${[...args, body].join(', ')});`;
  }
  return { params, title, returns, statement, name: shortcut.names.java };
}

function controlFile(contract, model) {
  const operationsById = new Map(contract.operations.map((operation) => [operation.id, operation]));
  const methods = contract.operations.flatMap((operation) => controlMethods(operation, model));
  for (const shortcut of contract.shortcuts ?? []) {
    const method = shortcutMethod(shortcut, operationsById);
    const via = operationsById.get(shortcut.via);
    const type = method.returns ?? answerReturn(model, via.answer, via.pages).type;
    methods.push(
      [
        javadoc('  ', [
          method.title,
          ...method.params.map((param) => `@param ${param.name} ${param.doc}`),
          '@return the answer',
        ]),
        `  public ${type} ${method.name}(${method.params.map((param) => `${param.type} ${param.name}`).join(', ')}) {`,
        `    ${method.statement}`,
        '  }',
      ].join('\n'),
    );
  }
  const body = methods.join('\n\n');
  const imports = ['java.time.Instant', 'java.util.List', 'java.util.Map'].filter((name) =>
    new RegExp(`\\b${name.split('.').pop()}\\b`).test(body.replace(/\{@link [^}]*\}/g, '')),
  );
  const text = `${fileHeader}${packageLine}

${imports.map((name) => `import ${name};`).join('\n')}

${javadoc('', [
  "The emulator's control API, <code>&lt;origin&gt;" +
    docText(contract.paths.control) +
    '&lt;path&gt;</code>: one method per operation of <code>test-vectors/kit-contract.json</code>, named by its Java name (<code>messages.wait</code> is {@link #messagesWait}), and its shortcuts.',
  "Answers are records read from the answer's JSON; a list answers a {@link Page}. A body is a map of the documented fields (an input of at most " +
    positionalFields +
    ' fields also has overloads taking them in order, the required ones first); a duration may be a {@link java.time.Duration} or the emulator\'s text (<code>"15m"</code>), an instant an {@link Instant} or ISO 8601 text. An error answer throws {@link ControlException} with its catalogued code. The transport (timeout, token, the keep-alive retry) is {@link ControlTransport}.',
])}
public class Control extends ControlTransport {
  /** The control API's path under the emulator's origin. */
  public static final String PATH = ${quoted(contract.paths.control)};

  /**
   * A control client of the emulator at {@code origin}.
   *
   * @param origin the emulator's origin (scheme, host and port)
   * @param token its control token, or null
   */
  public Control(String origin, String token) {
    super(origin, PATH, token);
  }

${body}
}
`;
  return { path: `${folder}Control.java`, text };
}

// ---- the shared settings

/** The contract's \`container\` section as KitSettings.Container, which the Testcontainers module reads. */
function containerSettings(container) {
  const constant = (doc, type, name, value) => `    /** ${doc} */\n    public static final ${type} ${name} = ${value};`;
  return `${javadoc('  ', [docText(container.description)])}
  public static final class Container {
${constant('The image a module starts unless told another.', 'String', 'IMAGE', quoted(container.image))}

${constant("The image's repository, without the tag.", 'String', 'REPOSITORY', quoted(container.repository))}

${constant('The environment variable naming another image.', 'String', 'IMAGE_ENV', quoted(container.imageEnv))}

${constant('The port the emulator listens on inside the container.', 'int', 'PORT', String(container.port))}

${constant('The path a module waits on: 200 once ready, open without the control token.', 'String', 'HEALTH_PATH', quoted(container.healthPath))}

${constant("The container's environment variable of its control token.", 'String', 'CONTROL_TOKEN_ENV', quoted(container.controlTokenEnv))}

${constant("The container's environment variable of the host names other containers reach it by (comma-separated).", 'String', 'ALLOWED_HOSTS_ENV', quoted(container.allowedHostsEnv))}

    private Container() {}
  }`;
}

function settingsFile(contract) {
  const { settings } = contract;
  const grammar = settings.durationGrammar;
  const units = Object.entries(grammar.units);
  const unitAlternatives = [...units.map(([unit]) => unit)].sort((a, b) => b.length - a.length).join('|');
  const duration = (setting, what) =>
    [
      javadoc('  ', [
        `${docText(setting.description)} Default <code>${setting.default}</code>${setting.env ? `; <code>${setting.env}</code> changes it` : ''}${what ? `; ${what}` : ''}.`,
      ]),
      `  public static final Duration ${setting.constant} = Duration.ofMillis(${setting.ms}L);`,
    ].join('\n');
  const text = `${fileHeader}${packageLine}

import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

${javadoc('', [
  "The settings every front door of sms-emulator shares (the contract's <code>settings</code>): the defaults, the error prefix, and the one grammar every duration setting is read with.",
  docText(grammar.rule),
])}
public final class KitSettings {
  /** The start of every error text the kit raises. */
  public static final String ERROR_PREFIX = ${quoted(settings.errorPrefix)};

  /** The environment variable of the start timeout. */
  public static final String START_TIMEOUT_ENV = ${quoted(settings.startTimeout.env)};

${duration({ ...settings.startTimeout, constant: 'START_TIMEOUT' })}

${duration({ ...settings.controlTimeout, constant: 'CONTROL_TIMEOUT' })}

${duration({ ...settings.waitWithin, constant: 'WAIT_WITHIN' })}

${javadoc('  ', [docText(settings.webhookBodyLimit.description)])}
  public static final long WEBHOOK_BODY_LIMIT = ${settings.webhookBodyLimit.bytes}L;

  /** The duration grammar: a bare number, or number-and-unit parts. */
  public static final Pattern DURATION_PATTERN = Pattern.compile(${quoted(grammar.pattern)});

  /** Each unit of the grammar in milliseconds. */
  public static final Map<String, Long> DURATION_UNITS = Map.of(${units.map(([unit, ms]) => `${quoted(unit)}, ${ms}L`).join(', ')});

  /** The unit a bare number counts. */
  public static final String BARE_NUMBER_UNIT = ${quoted(grammar.bareNumberUnit)};

  /** A duration must be more than this many milliseconds. */
  public static final long MIN_EXCLUSIVE_MS = ${grammar.minExclusiveMs}L;

  /** A duration may be at most this many milliseconds. */
  public static final long MAX_MS = ${grammar.maxMs}L;

  /** The error for a setting that is not a duration, with <code>{name}</code> and <code>{text}</code> to fill in. */
  public static final String DURATION_PROBLEM = ${quoted(grammar.problem)};

${containerSettings(contract.container)}

  private static final Pattern BARE_NUMBER = Pattern.compile("\\\\d+(?:\\\\.\\\\d+)?");
  private static final Pattern PART = Pattern.compile("(\\\\d+(?:\\\\.\\\\d+)?)(${unitAlternatives})");

  private KitSettings() {}

  /**
   * Reads a duration setting by the grammar: spaces around it ignored, a bare number in seconds, the parts summed and
   * rounded to whole milliseconds, more than {@link #MIN_EXCLUSIVE_MS} and at most {@link #MAX_MS}.
   *
   * @param name the setting's name, for the error (an environment variable's, an attribute's)
   * @param text what it was given
   * @return the duration
   * @throws IllegalArgumentException with {@link #DURATION_PROBLEM} filled in, when the text is not a duration
   */
  public static Duration parseDuration(String name, String text) {
    String trimmed = text == null ? "" : text.strip();
    if (DURATION_PATTERN.matcher(trimmed).matches()) {
      String parts = BARE_NUMBER.matcher(trimmed).matches() ? trimmed + BARE_NUMBER_UNIT : trimmed;
      double sum = 0;
      for (Matcher part = PART.matcher(parts); part.find(); )
        sum += Double.parseDouble(part.group(1)) * DURATION_UNITS.get(part.group(2));
      long ms = Math.round(sum);
      if (ms > MIN_EXCLUSIVE_MS && ms <= MAX_MS) return Duration.ofMillis(ms);
    }
    throw new IllegalArgumentException(DURATION_PROBLEM.replace("{name}", name).replace("{text}", String.valueOf(text)));
  }
}
`;
  return { path: `${folder}KitSettings.java`, text };
}

/** Every generated file of the Java kit. */
/** What kits/java/CONTROL.md says above its table (scripts/kitgen/controlReference.js writes the page). */
const reference = {
  title: "The Java kit's control methods",
  intro: [
    "Every operation of the emulator's control API is a method of `Control` (`sms.control()`), generated from the kit",
    "contract with its javadoc. The arguments: the path's parameters first, as `String`s, then the body as a `Map` of the",
    'documented fields (an input of at most three fields also has overloads taking them in order), then the query as a',
    "`Map` (with `page` and `limit` for a list). Durations are a `java.time.Duration` or the contract's text, instants an",
    "`Instant` or ISO 8601 text; the answers are the generated records (a list's as a `Page`).",
  ].join(' '),
};

export function kitFiles(contract) {
  const model = answerModel(contract);
  const operationsByAnswer = new Map();
  for (const operation of contract.operations) {
    if (operation.answer === null) continue;
    const list = operationsByAnswer.get(operation.answer) ?? [];
    operationsByAnswer.set(operation.answer, [...list, operation.names.java]);
  }
  const topLevel = [...model.records.values()].filter((record) => !record.name.includes('.'));
  const control = controlFile(contract, model);
  return [
    control,
    controlReference(contract, { language: 'java', source: control.text, ...reference }),
    settingsFile(contract),
    ...topLevel.map((record) => recordFile(record, model, operationsByAnswer)),
  ];
}
