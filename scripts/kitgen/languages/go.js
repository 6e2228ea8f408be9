// The Go kit's generated surface (kits/go, package smsemu) from the kit contract: a method of Control per control
// operation (operations.go), the answers as structs (types.go), the bodies and queries as structs that know how they
// travel (inputs.go), and the settings every front door shares with the one duration grammar (settings.go). The text
// is what gofmt writes (tabs, aligned struct fields, no one-line functions), so `gofmt -l` finds nothing to change;
// kits/go's hand-kept files (bodies.go, control.go) hold the helpers it calls.
import { generatedMark } from '../generatedKitFiles.js';
import { wrapWords } from '../wrapWords.js';

/** The text width of a doc comment (the kit's lines stay within 120 columns). */
const commentWidth = 114;

/**
 * Go names the kit's users had before the surface was generated, where the contract's own name would give another:
 * answers (the world's own `Clock` is the test's clock handle), nested records, bodies and queries (by operation id).
 */
const answerNames = { Clock: 'ClockInfo', World: 'WorldAnswer', Wait: 'WaitAnswer' };
const recordNames = {
  'ClockInfo.incidents': 'Incident',
  'ClockInfo.run': 'Run',
  'Account.live': 'Wallet',
  'ControlMessage.history': 'Change',
  'ControlMessage.legs': 'Leg',
  'WebhookEvent.attempts': 'Attempt',
  'BundledScenarios.scenarios': 'BundledScenario',
  'ReceiverReport.checks': 'CheckResult',
  'CheckResult.answers': 'CheckAnswer',
  'CheckResult.state': 'StateRead',
  'WaitAnswer.clock': 'WaitClock',
};
const inputNames = {
  'clock.move': 'ClockCommand',
  'clocks.create': 'TestClockInput',
  'worlds.create': 'WorldRequest',
  'accounts.create': 'AccountInput',
  'accounts.update': 'AccountPatch',
  'replies.inject': 'Reply',
  'webhooks.setChaos': 'ChaosInput',
  receiverCheck: 'ReceiverCheckInput',
};
const nestedInputNames = { 'WorldRequest.account': 'WorldAccount', 'AccountPatch.live': 'WalletPatch' };
const queryNames = {
  'messages.list': 'MessageFilter',
  'replies.list': 'ReplyFilter',
  'webhooks.list': 'WebhookFilter',
  'requests.find': 'JournalFilter',
  'optOuts.list': 'OptOutTarget',
};
/** Texts of an instant (the contract types them as strings): the kit takes a time.Time as well. */
const instantFields = new Set(['set', 'startTime', 'at', 'since']);

const initialisms = new Set(['id', 'url', 'uri', 'api', 'ok', 'ucs2', 'http', 'html', 'json']);

/** `messageId` → `MessageID`, `ucs2_trigger` → `UCS2Trigger`: an exported Go name for a wire name. */
function goName(wire) {
  return wire
    .split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/)
    .filter(Boolean)
    .map((word) => (initialisms.has(word.toLowerCase()) ? word.toUpperCase() : word[0].toUpperCase() + word.slice(1)))
    .join('');
}

/** `attempts` → `attempts`'s one item: `attempt`. */
function singular(word) {
  return word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

/** `a WorldRequest`, `an AccountInput`. */
function article(name) {
  return `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name}`;
}

function quote(text) {
  return JSON.stringify(text);
}

/** Doc comment lines (with the tab indent given) for a text, wrapped. */
function comment(text, indent = '') {
  return wrapWords(text, commentWidth - indent.length * 4).map((line) => `${indent}// ${line}`);
}

/** A sentence's first letter in lower case, for "X calls ...: summary" (unless it starts with a code span or name). */
function lowerFirst(text) {
  return /^[A-Z](?=[a-z ])/.test(text) ? text[0].toLowerCase() + text.slice(1) : text;
}

function nonNull(schema) {
  if (Array.isArray(schema.anyOf)) {
    const kept = schema.anyOf.filter((option) => option.type !== 'null');
    return kept.length === 1 ? nonNull(kept[0]) : schema;
  }
  if (Array.isArray(schema.type)) {
    const kept = schema.type.filter((type) => type !== 'null');
    return kept.length === 1 ? { ...schema, type: kept[0] } : schema;
  }
  return schema;
}

function isNullable(schema) {
  return (
    (Array.isArray(schema.type) && schema.type.includes('null')) ||
    (Array.isArray(schema.anyOf) && schema.anyOf.some((option) => option.type === 'null'))
  );
}

/** `a`, `a and b`, `a, b and c`. */
function listText(items) {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function isRecord(schema) {
  return schema.type === 'object' && Object.keys(schema.properties ?? {}).length > 0;
}

/** Does the schema hold a union of shapes anywhere (a text or an object, say), which no Go struct can type? */
function hasUnion(schema) {
  if (schema === null || typeof schema !== 'object') return false;
  if (Array.isArray(schema.anyOf) && schema.anyOf.filter((option) => option.type !== 'null').length > 1) return true;
  return Object.values(schema).some((value) =>
    Array.isArray(value) ? value.some(hasUnion) : typeof value === 'object' && hasUnion(value),
  );
}

/** Answers read with GET from a path that takes them back with PUT: documents handed back and forth whole. */
function documentAnswers(contract) {
  const written = new Set(contract.operations.filter((op) => op.method === 'PUT' && op.body).map((op) => op.path));
  return new Set(
    contract.operations.filter((op) => op.method === 'GET' && op.answer && written.has(op.path)).map((op) => op.answer),
  );
}

/** The struct's lines as gofmt aligns them: a field with a doc comment starts a new block of aligned columns. */
function structLines(fields) {
  const blocks = [];
  for (const field of fields) {
    if (field.doc !== undefined || blocks.length === 0) blocks.push([]);
    blocks[blocks.length - 1].push(field);
  }
  return blocks.flatMap((block) => {
    const nameWidth = Math.max(...block.map((field) => field.name.length));
    const typeWidth = Math.max(...block.map((field) => field.type.length));
    return block.flatMap((field) => {
      const docs = field.doc === undefined ? [] : comment(field.doc, '\t');
      if (field.tag === undefined && field.name === '') return [...docs, `\t${field.type}`];
      const name = field.name.padEnd(nameWidth);
      const line =
        field.tag === undefined ? `${name} ${field.type}` : `${name} ${field.type.padEnd(typeWidth)} ${field.tag}`;
      return [...docs, `\t${line}`.trimEnd()];
    });
  });
}

function structDecl(name, doc, fields) {
  return [...comment(doc), `type ${name} struct {`, ...structLines(fields), '}'].join('\n');
}

/** Enum values as a sentence part: `"realtime" or "manual"`. */
function enumText(values) {
  const quoted = values.map(quote);
  return quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}

// ---- answers ----

function answerModel(contract) {
  const documents = documentAnswers(contract);
  const records = [];
  const byShape = new Map();
  const types = new Map();
  const usedBy = new Map();
  for (const op of contract.operations)
    if (op.answer) usedBy.set(op.answer, [...(usedBy.get(op.answer) ?? []), op.names.go]);
  for (const [name, schema] of Object.entries(contract.answers)) {
    const goType = answerNames[name] ?? name;
    if (documents.has(name) || hasUnion(schema)) types.set(name, { go: goType, document: true });
    else if (isRecord(schema)) {
      types.set(name, { go: goType, record: true });
      byShape.set(JSON.stringify(schema), goType);
    } else types.set(name, { go: scalarType(nonNull(schema)) });
  }

  function scalarType(schema) {
    if (schema.type === 'integer') return /epoch milliseconds/.test(schema.description ?? '') ? 'int64' : 'int';
    if (schema.type === 'number') return 'float64';
    if (schema.type === 'boolean') return 'bool';
    if (schema.type === 'string') return 'string';
    return 'json.RawMessage';
  }

  // A record's name: the kit's own for that field, else the parent's and the field's (one item's, for a list).
  function fieldType(parent, wire, raw, item = false) {
    const schema = nonNull(raw);
    if (schema.type === 'array') return `[]${fieldType(parent, wire, schema.items ?? {}, true)}`;
    if (isRecord(schema))
      return record(
        recordNames[`${parent}.${wire}`] ?? `${parent}${goName(item ? singular(wire) : wire)}`,
        schema,
        parent,
      );
    if (schema.type === 'object' && typeof schema.additionalProperties === 'object')
      return `map[string]${fieldType(parent, wire, schema.additionalProperties, item)}`;
    return scalarType(schema);
  }

  function record(name, schema, parent) {
    const shape = JSON.stringify(schema);
    const known = byShape.get(shape);
    if (known !== undefined && records.some((entry) => entry.name === known)) return known;
    byShape.set(shape, name);
    const entry = { name, parent, fields: [] };
    records.push(entry);
    const required = new Set(schema.required ?? []);
    for (const [wire, property] of Object.entries(schema.properties)) {
      const optional = !required.has(wire);
      let type = fieldType(name, wire, property);
      if (optional && isRecord(nonNull(property))) type = `*${type}`;
      const notes = [];
      if (property.description) notes.push(property.description);
      const values = nonNull(property).enum ?? nonNull(property.items ?? {}).enum;
      if (values) notes.push(`${property.type === 'array' ? 'Each is' : 'One of'} ${enumText(values)}.`);
      if (isNullable(property)) notes.push('Empty when null.');
      entry.fields.push({
        name: goName(wire),
        type,
        tag: `\`json:"${wire}${optional ? ',omitempty' : ''}"\``,
        doc: notes.length > 0 ? `${goName(wire)}: ${lowerFirst(notes.join(' '))}` : undefined,
      });
    }
    return name;
  }

  for (const [name, schema] of Object.entries(contract.answers)) {
    const type = types.get(name);
    if (type.record) record(type.go, schema, undefined);
  }
  return { records, types, documents: [...types].filter(([, type]) => type.document), usedBy };
}

function typesFile(contract, answers) {
  const declarations = [];
  for (const [name, type] of answers.documents) {
    const by = answers.usedBy.get(name) ?? [];
    declarations.push(
      [
        ...comment(
          `${type.go} is the emulator's own document that ${listText(by)} answer${by.length === 1 ? 's' : ''}, kept whole as its JSON so it goes back unchanged.`,
        ),
        `type ${type.go} = json.RawMessage`,
      ].join('\n'),
    );
  }
  const answerOf = new Map([...answers.types].filter(([, type]) => type.record).map(([name, type]) => [type.go, name]));
  for (const entry of answers.records) {
    const contractName = answerOf.get(entry.name);
    const by = contractName === undefined ? [] : (answers.usedBy.get(contractName) ?? []);
    const doc =
      contractName === undefined
        ? `${entry.name} is part of ${entry.parent}.`
        : by.length > 0
          ? `${entry.name} is what ${listText(by)} answer${by.length === 1 ? 's' : ''} (the contract's ${contractName}).`
          : `${entry.name} is the contract's ${contractName}.`;
    declarations.push(structDecl(entry.name, doc, entry.fields));
  }
  return goFile(
    'The control API\'s answers, one struct per record of the contract\'s "answers" (a null text is "").',
    ['encoding/json'],
    declarations,
  );
}

/** Each answer with a value of its Go type, for the kit's contract test (a _test.go file: no code of the package). */
function answersTestFile(answers) {
  const zero = { string: '""', bool: 'false', 'json.RawMessage': 'json.RawMessage(nil)' };
  const rows = [...answers.types].map(([name, type]) => {
    const value = type.document ? `${type.go}(nil)` : type.record ? `${type.go}{}` : (zero[type.go] ?? `${type.go}(0)`);
    return `\t{${quote(name)}, ${value}},`;
  });
  return goFile(
    'Each answer of the contract with a value of the Go type that holds it, for contract_test.go.',
    rows.some((row) => row.includes('json.')) ? ['encoding/json'] : [],
    [['var contractAnswerTypes = []struct {', '\tname  string', '\tvalue any', '}{', ...rows, '}'].join('\n')],
  );
}

// ---- inputs (bodies and queries) ----

function inputModel(contract) {
  const structs = [];
  const byShape = new Map();
  const bodies = new Map();
  const queries = new Map();

  function inputField(owner, wire, raw, required) {
    const schema = nonNull(raw);
    const name = goName(wire);
    const notes = [];
    if (raw.description) notes.push(raw.description);
    let type;
    let encode;
    if (Array.isArray(schema.type) && schema.type.includes('number') && schema.type.includes('string')) {
      type = 'any';
      encode = 'duration';
      notes.push('A time.Duration or a text such as "15m".');
    } else if (instantFields.has(wire) && schema.type === 'string') {
      type = 'any';
      encode = 'instant';
      notes.push('A time.Time or an RFC 3339 text.');
    } else if (isRecord(schema)) {
      type = `*${inputStruct(nestedInputNames[`${owner}.${wire}`] ?? `${owner}${name}`, schema)}`;
      encode = 'nested';
    } else if (schema.type === 'integer' || schema.type === 'number') {
      const base = schema.type === 'integer' ? 'int' : 'float64';
      type = schema.minimum === 0 && !required ? `*${base}` : base;
      encode = 'set';
      if (type.startsWith('*')) notes.push('Nil is not sent (0 is).');
    } else if (schema.type === 'boolean') {
      type = 'bool';
      encode = 'set';
    } else if (schema.type === 'array') {
      type = `[]${nonNull(schema.items ?? {}).type === 'string' ? 'string' : 'any'}`;
      encode = 'set';
    } else if (schema.type === 'string' && isNullable(raw)) {
      // A string that may be null has three states: not sent, null, a text; "" is never a valid one, so it says null.
      type = '*string';
      encode = 'set';
      notes.push('Nil is not sent; a pointer to "" sends null.');
    } else if (schema.type === 'string') {
      type = 'string';
      encode = 'set';
    } else {
      type = 'any';
      encode = 'set';
    }
    const values = schema.enum ?? nonNull(schema.items ?? {}).enum;
    if (values) notes.push(`${schema.type === 'array' ? 'Each is' : 'One of'} ${enumText(values)}.`);
    if (required) notes.push('Required.');
    return {
      name,
      wire,
      type,
      encode,
      required,
      doc: notes.length > 0 ? `${name}: ${lowerFirst(notes.join(' '))}` : undefined,
    };
  }

  function inputStruct(name, schema, doc) {
    const shape = JSON.stringify(schema);
    const known = byShape.get(shape);
    if (known !== undefined) return known;
    byShape.set(shape, name);
    const entry = { name, doc: doc ?? `${name} is a part of a control request's body.`, fields: [], kind: 'body' };
    structs.push(entry);
    const required = new Set(schema.required ?? []);
    for (const [wire, property] of Object.entries(schema.properties))
      entry.fields.push(inputField(name, wire, property, required.has(wire)));
    return name;
  }

  for (const op of contract.operations) {
    if (op.input !== undefined) {
      const properties = Object.entries(op.input.properties ?? {});
      const [wire, only] = properties[0] ?? [];
      if (properties.length === 1 && nonNull(only).type === 'string' && !instantFields.has(wire))
        bodies.set(op.id, { single: wire });
      else {
        const name = inputStruct(
          inputNames[op.id] ?? `${op.names.go}Input`,
          op.input,
          `${inputNames[op.id] ?? `${op.names.go}Input`} is the body of ${op.names.go}; zero fields are not sent.`,
        );
        bodies.set(op.id, { struct: name });
        const struct = structs.find((entry) => entry.name === name);
        struct.users = [...(struct.users ?? []), op.names.go];
      }
    }
    if (op.query.length === 1 && !op.pages) queries.set(op.id, { single: op.query[0] });
    else if (op.query.length > 0) {
      const key = op.query.join('&');
      let entry = structs.find((struct) => struct.kind === 'query' && struct.key === key);
      if (entry === undefined) {
        const name = queryNames[op.id] ?? `${op.names.go}Query`;
        entry = {
          name,
          key,
          kind: 'query',
          doc: `${name} is the query of ${op.names.go}; empty fields are not sent.`,
          fields: op.query.map((wire) => ({
            name: goName(wire),
            wire,
            type: instantFields.has(wire) ? 'any' : 'string',
            encode: instantFields.has(wire) ? 'instant' : 'set',
            doc: instantFields.has(wire) ? `${goName(wire)}: a time.Time or a text.` : undefined,
          })),
          users: [],
        };
        structs.push(entry);
      }
      entry.users.push(op.names.go);
      if (op.pages && !entry.fields.some((field) => field.name === '')) {
        entry.fields.push({ name: '', type: 'PageQuery', doc: 'PageQuery is the page asked for, for a list.' });
      }
      queries.set(op.id, { struct: entry.name });
    }
  }
  for (const entry of structs) {
    if (entry.kind === 'query' && entry.users.length > 1)
      entry.doc = `${entry.name} is the query of ${listText(entry.users)}; empty fields are not sent.`;
    if (entry.kind === 'body' && entry.users?.length > 1)
      entry.doc = `${entry.name} is the body of ${listText(entry.users)}; zero fields are not sent.`;
  }
  return { structs, bodies, queries };
}

function bodyMethod(struct) {
  const lines = [`func (in ${struct.name}) body() (fields, error) {`, '\tf := fields{}'];
  for (const field of struct.fields) {
    if (field.encode === 'duration' || field.encode === 'instant')
      lines.push(
        `\tif err := f.${field.encode}(${quote(field.wire)}, in.${field.name}); err != nil {`,
        '\t\treturn nil, err',
        '\t}',
      );
    else if (field.encode === 'nested')
      lines.push(
        `\tif in.${field.name} != nil {`,
        `\t\tnested, err := in.${field.name}.body()`,
        '\t\tif err != nil {',
        '\t\t\treturn nil, err',
        '\t\t}',
        `\t\tf[${quote(field.wire)}] = nested`,
        '\t}',
      );
    // A required scalar is always sent: its zero value ("" for cost's text) is a value, not "not given".
    else if (field.required && ['string', 'int', 'float64', 'bool'].includes(field.type))
      lines.push(`\tf[${quote(field.wire)}] = in.${field.name}`);
    else lines.push(`\tf.set(${quote(field.wire)}, in.${field.name})`);
  }
  lines.push('\treturn f, nil', '}');
  return lines.join('\n');
}

function valuesMethod(struct) {
  const lines = [`func (in ${struct.name}) values() (url.Values, error) {`, '\tquery := url.Values{}'];
  for (const field of struct.fields) {
    if (field.name === '') continue;
    if (field.encode === 'instant')
      lines.push(
        `\tif err := addInstant(query, ${quote(field.wire)}, in.${field.name}); err != nil {`,
        '\t\treturn nil, err',
        '\t}',
      );
    else lines.push(`\taddQuery(query, ${quote(field.wire)}, in.${field.name})`);
  }
  lines.push('\treturn query, nil', '}');
  return lines.join('\n');
}

function inputsFile(inputs) {
  const declarations = inputs.structs.flatMap((struct) => [
    structDecl(
      struct.name,
      struct.doc,
      struct.fields.map((field) => ({ name: field.name, type: field.type, doc: field.doc })),
    ),
    struct.kind === 'query' ? valuesMethod(struct) : bodyMethod(struct),
  ]);
  return goFile(
    "The control API's request bodies and queries, one struct per shape of the contract's operations, each with how it travels.",
    ['net/url'],
    declarations,
  );
}

// ---- operations ----

function operationMethod(contract, op, answers, inputs, control) {
  const params = op.params.map((name) => ({ name, type: 'string' }));
  const statements = [];
  const notes = [];
  let answerType = null;
  if (op.answer !== null) {
    const type = answers.types.get(op.answer).go;
    answerType = op.pages ? `Page[${type}]` : type;
  }
  const failWith = answerType === null ? 'err' : `fail[${answerType}](err)`;
  let pathExpression = quote(op.path);
  if (op.params.length > 0) {
    const parts = op.path.split(/\{(\w+)\}/);
    const pieces = parts
      .map((part, index) => (index % 2 === 1 ? `url.PathEscape(${part})` : part === '' ? null : quote(part)))
      .filter((piece) => piece !== null);
    statements.push(`\tpath := ${pieces.join(' + ')}`);
    pathExpression = 'path';
    notes.push(...op.params.map((name) => `${name} fills {${name}} in the path`));
  }
  let bodyExpression = 'nil';
  const body = inputs.bodies.get(op.id);
  if (body?.struct) {
    params.push({ name: 'input', type: body.struct });
    statements.push('\tbody, err := input.body()', '\tif err != nil {', `\t\treturn ${failWith}`, '\t}');
    bodyExpression = 'body';
    notes.push(`input is the JSON body (${article(body.struct)})`);
  } else if (body?.single) {
    params.push({ name: body.single, type: 'string' });
    bodyExpression = `fieldsOf(${quote(body.single)}, ${body.single})`;
    notes.push(`${body.single} is the body's ${quote(body.single)} (not sent when empty)`);
  } else if (op.body) {
    params.push({ name: 'body', type: 'any' });
    bodyExpression = 'body';
    notes.push(
      op.bodyText
        ? 'body is a value sent as JSON (a map) or a YAML or JSON text'
        : 'body is sent as JSON (a json.RawMessage as it is)',
    );
  }
  let queryExpression = 'nil';
  const query = inputs.queries.get(op.id);
  if (query?.single) {
    params.push({ name: query.single, type: 'string' });
    queryExpression = `queryOf(${quote(query.single)}, ${query.single})`;
    notes.push(`${query.single} is the query's ${quote(query.single)} (not sent when empty)`);
  } else if (query?.struct) {
    params.push({ name: 'filter', type: query.struct });
    statements.push('\tquery, err := filter.values()', '\tif err != nil {', `\t\treturn ${failWith}`, '\t}');
    if (op.pages) statements.push('\tfilter.PageQuery.addTo(query)');
    queryExpression = 'query';
    notes.push(`filter is the query (${article(query.struct)}${op.pages ? ', with the page' : ''})`);
  } else if (op.pages) {
    params.push({ name: 'page', type: 'PageQuery' });
    queryExpression = 'page.values()';
    notes.push("page is the page asked for (zero: the emulator's default)");
  }
  const args = `${quote(op.method)}, ${pathExpression}, ${queryExpression}, ${bodyExpression}`;
  statements.push(answerType === null ? `\treturn c.Call(${args}, nil)` : `\treturn call[${answerType}](c, ${args})`);
  const results = answerType === null ? 'error' : `(${answerType}, error)`;
  const signature = params.map((param, index) =>
    index + 1 < params.length && params[index + 1].type === param.type ? param.name : `${param.name} ${param.type}`,
  );
  const answerText =
    op.answer === null
      ? 'answers nothing'
      : `answers ${op.pages ? `a page of ${answers.types.get(op.answer).go}` : answers.types.get(op.answer).go}`;
  const doc = [
    ...comment(`${op.names.go} calls ${op.method} ${control}${op.path} (${op.id}) and ${answerText}.`),
    '//',
    ...comment(op.summary),
    ...(notes.length > 0 ? ['//', ...comment(`Arguments: ${notes.join('; ')}.`)] : []),
  ];
  const head = `${op.names.go}(${signature.join(', ')}) ${results}`;
  return {
    code: [...doc, `func (c *Control) ${head} {`, ...statements, '}'].join('\n'),
    head,
    arguments: notes.join('; '),
  };
}

function operationsFile(contract, answers, inputs) {
  const methods = contract.operations.map((op) =>
    operationMethod(contract, op, answers, inputs, contract.paths.control),
  );
  const needsURL = contract.operations.some((op) => op.params.length > 0 || inputs.queries.get(op.id)?.struct);
  return goFile(
    "One method of Control per operation of the emulator's control API (docs/control-api.md), named by the contract.",
    needsURL ? ['net/url'] : [],
    methods.map((method) => method.code),
  );
}

function cell(text) {
  return text.replace(/\|/g, '\\|');
}

/** The methods and inputs as a page (kits/go/CONTROL.md), which docs/go.md links: every argument list in one place. */
function controlPage(contract, answers, inputs) {
  const rows = contract.operations.map((op) => {
    const method = operationMethod(contract, op, answers, inputs, contract.paths.control);
    const route = `${op.method} ${contract.paths.control}${op.path}`;
    const args = method.arguments === '' ? '' : ` Arguments: ${method.arguments}.`;
    return `| \`${method.head}\` | \`${route}\` | ${cell(op.summary + args)} |`;
  });
  const structs = inputs.structs.flatMap((struct) => [
    `### ${struct.name}`,
    '',
    struct.doc,
    '',
    ...struct.fields.map(
      (field) =>
        `- \`${field.name === '' ? field.type : `${field.name} ${field.type}`}\`${field.wire ? ` (\`${field.wire}\`)` : ''}${field.doc ? `: ${field.doc.slice(field.doc.indexOf(':') + 1).trim() || field.doc}` : ''}`,
    ),
    '',
  ]);
  return [
    `<!-- ${generatedMark} -->`,
    '',
    "# The Go kit's control methods",
    '',
    "Every operation of the emulator's control API is a method of `*smsemu.Control` (`w.Control`), generated from the kit",
    "contract with its doc comment. The arguments come in one order: the path's parameters, then the JSON body as its",
    'input struct (a body of one text field is that text), then the query as its filter struct (a query of one value is',
    "that text; a list's filter embeds `PageQuery`, a list without one takes a `PageQuery`). Durations are a",
    '`time.Duration` or a text (`"15m"`), instants a `time.Time` or an RFC 3339 text; zero fields are not sent.',
    '',
    '| method | route | what it does |',
    '|---|---|---|',
    ...rows,
    '',
    '## The inputs',
    '',
    ...structs,
  ].join('\n');
}

// ---- settings ----

function durationConst(name, setting) {
  return [
    ...comment(
      `${name} is ${setting.default}: ${lowerFirst(setting.description)}${setting.env ? ` ${setting.env} sets another, read by ParseDuration.` : ''}`,
    ),
    `const ${name} = ${setting.ms} * time.Millisecond`,
  ].join('\n');
}

/** The contract's container section: what the Testcontainers module (kits/go/smsemucontainer) starts and sets. */
function containerConsts(container) {
  const consts = [
    [
      'ContainerImage',
      quote(container.image),
      `the image a container module starts unless ${container.imageEnv} or its argument names another.`,
    ],
    ['ContainerRepository', quote(container.repository), "the image's repository, without the tag."],
    ['ContainerImageEnv', quote(container.imageEnv), 'the variable naming another image to start.'],
    ['ContainerPort', String(container.port), 'the port the emulator listens on inside the container.'],
    [
      'ContainerHealthPath',
      quote(container.healthPath),
      'answers 200 once the emulator is ready, without the control token.',
    ],
    ['ContainerControlTokenEnv', quote(container.controlTokenEnv), "sets the container's control token."],
    [
      'ContainerAllowedHostsEnv',
      quote(container.allowedHostsEnv),
      'lists the names other containers reach it by (comma-separated).',
    ],
  ];
  return consts.map(([name, value, what]) =>
    [...comment(`${name} is ${value.replaceAll('"', '')}: ${what}`), `const ${name} = ${value}`].join('\n'),
  );
}

function settingsFile(settings, container) {
  const grammar = settings.durationGrammar;
  if (grammar.pattern.includes('`')) throw new Error('kitgen go: the duration pattern holds a backquote');
  const units = Object.entries(grammar.units)
    .map(([unit, ms]) => `${quote(unit)}: ${ms}`)
    .join(', ');
  const unitAlternatives = Object.keys(grammar.units)
    .sort((a, b) => b.length - a.length)
    .join('|');
  const declarations = [
    [
      ...comment('ErrorPrefix starts every error text a front door raises, so a reader can tell whose it is.'),
      `const ErrorPrefix = ${quote(settings.errorPrefix)}`,
    ].join('\n'),
    durationConst('DefaultStartTimeout', settings.startTimeout),
    durationConst('DefaultControlTimeout', settings.controlTimeout),
    durationConst('DefaultWaitWithin', settings.waitWithin),
    [
      ...comment(
        `WebhookBodyLimit is ${settings.webhookBodyLimit.bytes}: ${lowerFirst(settings.webhookBodyLimit.description)} A world's catcher takes the running emulator's own ${settings.webhookBodyLimit.option} (its /limits), this when it runs with the default.`,
      ),
      `const WebhookBodyLimit = ${settings.webhookBodyLimit.bytes}`,
    ].join('\n'),
    ...containerConsts(container),
    [
      ...comment("DurationPattern is the whole text of a duration setting (the emulator's grammar)."),
      `const DurationPattern = \`${grammar.pattern}\``,
    ].join('\n'),
    [
      ...comment('MaxDuration is the longest duration a setting may name.'),
      `const MaxDuration = ${grammar.maxMs} * time.Millisecond`,
    ].join('\n'),
    [
      ...comment('durationProblem is the error for a text that is not a duration, with {name} and {text} to fill.'),
      `const durationProblem = ${quote(grammar.problem)}`,
    ].join('\n'),
    [
      ...comment('durationBareNumberUnit is the unit a bare number counts.'),
      `const durationBareNumberUnit = ${quote(grammar.bareNumberUnit)}`,
    ].join('\n'),
    [
      ...comment('durationMinExclusiveMs is what a duration must be more than, in milliseconds.'),
      `const durationMinExclusiveMs = ${grammar.minExclusiveMs}`,
    ].join('\n'),
    [
      ...comment('durationUnits is each unit in milliseconds.'),
      `var durationUnits = map[string]float64{${units}}`,
    ].join('\n'),
    [
      'var (',
      `\tdurationWhole = regexp.MustCompile(DurationPattern)`,
      `\tdurationPart  = regexp.MustCompile(\`(\\d+(?:\\.\\d+)?)(${unitAlternatives})?\`)`,
      ')',
    ].join('\n'),
    [
      ...comment(
        `ParseDuration reads a duration setting by the contract's one grammar: ${grammar.rule} name is the setting's name, for the error.`,
      ),
      'func ParseDuration(name, text string) (time.Duration, error) {',
      '\ttrimmed := strings.TrimSpace(text)',
      '\tif !durationWhole.MatchString(trimmed) {',
      '\t\treturn 0, durationError(name, text)',
      '\t}',
      '\tif strings.Trim(trimmed, "0123456789.") == "" {',
      '\t\ttrimmed += durationBareNumberUnit',
      '\t}',
      '\tms := 0.0',
      '\tfor _, part := range durationPart.FindAllStringSubmatch(trimmed, -1) {',
      '\t\tamount, err := strconv.ParseFloat(part[1], 64)',
      '\t\tif err != nil {',
      '\t\t\treturn 0, durationError(name, text)',
      '\t\t}',
      '\t\tms += amount * durationUnits[part[2]]',
      '\t}',
      '\tms = math.Floor(ms + 0.5)',
      '\tif ms <= durationMinExclusiveMs || ms > float64(MaxDuration/time.Millisecond) {',
      '\t\treturn 0, durationError(name, text)',
      '\t}',
      '\treturn time.Duration(ms) * time.Millisecond, nil',
      '}',
    ].join('\n'),
    [
      'func durationError(name, text string) error {',
      '\treturn errors.New(strings.NewReplacer("{name}", name, "{text}", text).Replace(durationProblem))',
      '}',
    ].join('\n'),
  ];
  return goFile(
    "The settings every front door shares (the contract's settings): defaults, the error prefix and the duration grammar; and the container section, what the Testcontainers module starts.",
    ['errors', 'math', 'regexp', 'strconv', 'strings', 'time'],
    declarations,
  );
}

// ---- files ----

function goFile(purpose, imports, declarations) {
  const importBlock =
    imports.length === 0
      ? []
      : imports.length === 1
        ? [`import ${quote(imports[0])}`, '']
        : ['import (', ...[...imports].sort().map((name) => `\t${quote(name)}`), ')', ''];
  return [
    `// ${generatedMark}`,
    ...comment(purpose),
    '',
    'package smsemu',
    '',
    ...importBlock,
    declarations.join('\n\n'),
    '',
  ].join('\n');
}

/** The Go kit's generated files, from the contract. */
export function kitFiles(contract) {
  const answers = answerModel(contract);
  const inputs = inputModel(contract);
  return [
    { path: 'kits/go/types.go', text: typesFile(contract, answers) },
    { path: 'kits/go/inputs.go', text: inputsFile(inputs) },
    { path: 'kits/go/operations.go', text: operationsFile(contract, answers, inputs) },
    { path: 'kits/go/CONTROL.md', text: controlPage(contract, answers, inputs) },
    { path: 'kits/go/answers_test.go', text: answersTestFile(answers) },
    { path: 'kits/go/settings.go', text: settingsFile(contract.settings, contract.container) },
  ];
}
