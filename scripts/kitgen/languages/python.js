// The Python kit's generated surface (kits/python/src/pytest_sms_emulator/): every control operation as a typed,
// documented method of Control (control.py), the answers as frozen dataclasses read from the answer's JSON
// (answers.py), and the settings every front door shares with the one duration grammar (settings.py). The transport
// under Control (transport.py), the world, the catcher and the plugin stay hand-written.
import { generatedMark } from '../generatedKitFiles.js';
import { answerTypes, documentAnswers, inputType } from '../answerTypes.js';
import { wrapWords } from '../wrapWords.js';

const width = 120;
const folder = 'kits/python/src/pytest_sms_emulator';

/**
 * The names the kit published for nested records before it was generated (answerTypes names a nested record after its
 * parent and field: an account's `live` side is AccountLive): users import them from pytest_sms_emulator, so they stay.
 */
const publishedNames = {
  AccountLive: 'Wallet',
  ClockIncident: 'Incident',
  ControlMessageHistory: 'Change',
  ControlMessageLeg: 'Leg',
  WebhookEventAttempt: 'Attempt',
  BundledScenariosScenario: 'BundledScenario',
  ReceiverReportCheck: 'ReceiverCheck',
  ReceiverReportCheckAnswer: 'ReceiverAnswer',
};

/**
 * The body fields that are instants: the control API's schemas type them as text, so the contract cannot say; here
 * they take an aware `datetime` as well (any datetime argument is sent as ISO text all the same).
 */
const instantFields = new Set(['set', 'startTime', 'at']);

const keywords = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
    ' ',
  ),
);

function className(name) {
  return publishedNames[name] ?? name;
}

/** `messageId` → `message_id`; a Python keyword gets a trailing `_` (`from` → `from_`). */
function snake(wire) {
  const name = wire
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9_]/g, '_')
    .toLowerCase();
  return keywords.has(name) ? `${name}_` : name;
}

function pyString(text) {
  return JSON.stringify(text);
}

/** A docstring at an indent, wrapped; one line when it fits. */
function docstring(text, indent) {
  const clean = text.replace(/\\/g, '\\\\').replace(/"""/g, '\\"\\"\\"');
  const one = `${indent}"""${clean}"""`;
  if (one.length <= width) return [one];
  const lines = wrapWords(clean, width - indent.length - 3);
  return [`${indent}"""${lines[0]}`, ...lines.slice(1).map((line) => `${indent}${line}`), `${indent}"""`];
}

function comment(text, indent, lead = '#') {
  return wrapWords(text, width - indent.length - lead.length - 1).map((line) => `${indent}${lead} ${line}`);
}

/** A type as a Python annotation; records by their dataclass's name. */
function pyType(type) {
  switch (type.kind) {
    case 'string':
      return 'str';
    case 'enum':
      return `Literal[${type.values.map(pyString).join(', ')}]`;
    case 'integer':
      return 'int';
    case 'number':
      return 'float';
    case 'boolean':
      return 'bool';
    case 'null':
      return 'None';
    case 'list':
      return `List[${pyType(type.items)}]`;
    case 'map':
    case 'shape':
      return `Dict[str, ${type.kind === 'map' ? pyType(type.values) : 'Any'}]`;
    case 'record':
      return className(type.name);
    case 'union': {
      const others = type.types.filter((inner) => inner.kind !== 'null');
      const inner = others.length === 1 ? pyType(others[0]) : `Union[${others.map(pyType).join(', ')}]`;
      return others.length < type.types.length ? `Optional[${inner}]` : inner;
    }
    default:
      return 'Any';
  }
}

/**
 * `indent + text + suffix` as lines of at most `width`: a too long one holding a Literal breaks inside its brackets,
 * its values wrapped one level deeper (Python allows a break inside brackets anywhere).
 */
function fitted(indent, text, suffix = '') {
  const one = `${indent}${text}${suffix}`;
  const open = text.indexOf('Literal[');
  if (one.length <= width || open < 0) return [one];
  const close = text.indexOf(']', open);
  const values = text.slice(open + 'Literal['.length, close);
  const inner = `${indent}    `;
  return [
    `${indent}${text.slice(0, open + 'Literal['.length)}`,
    ...wrapWords(values, width - inner.length).map((line) => `${inner}${line}`),
    `${indent}${text.slice(close)}${suffix}`,
  ];
}

function allowed(type) {
  const values =
    type.kind === 'enum' ? type.values : type.kind === 'union' ? type.types.flatMap((t) => t.values ?? []) : [];
  return values.length > 1 ? ` One of ${values.map((value) => `"${value}"`).join(', ')}.` : '';
}

/** Is this the control API's duration (text such as "15m", or milliseconds)? */
function isDuration(schema) {
  return (
    Array.isArray(schema.type) && schema.type.length === 2 && ['string', 'number'].every((t) => schema.type.includes(t))
  );
}

// The answers ---------------------------------------------------------------------------------------------------------

function recordClass(record) {
  const name = className(record.name);
  const fields = record.fields.map((field) => ({ ...field, member: snake(field.wire) }));
  if (fields.some((field) => field.member === 'raw'))
    throw new Error(`kitgen python: ${record.name} has a field named raw, which every answer keeps for its JSON`);
  // Required fields first (a dataclass's fields without a default come before those with one), each group in the
  // schema's order; a field the answer may leave out defaults to None, or to an empty list.
  const ordered = [...fields.filter((field) => field.required), ...fields.filter((field) => !field.required)];
  const lines = [
    '@dataclass(frozen=True)',
    `class ${name}:`,
    ...docstring(record.description, '    '),
    '',
    ...(name.startsWith('Test') ? ['    __test__ = False  # not a pytest test class', ''] : []),
  ];
  for (const field of ordered) {
    const about = `${field.description}${allowed(field.type)}`.trim();
    if (about) lines.push(...comment(about, '    ', '#:'));
    const wire = snake(field.wire) === field.wire ? '' : `metadata={"json": ${pyString(field.wire)}}`;
    let annotation = pyType(field.type);
    let value = '';
    if (!field.required) {
      if (field.type.kind === 'list') value = 'field(default_factory=list' + (wire ? `, ${wire})` : ')');
      else {
        if (!annotation.startsWith('Optional[') && annotation !== 'Any') annotation = `Optional[${annotation}]`;
        value = wire ? `field(default=None, ${wire})` : 'None';
      }
    } else if (wire) value = `field(${wire})`;
    lines.push(...fitted('    ', `${field.member}: ${annotation}${value ? ` = ${value}` : ''}`));
  }
  lines.push(
    '    #: The answer as parsed (camelCase names), for what the fields do not say.',
    '    raw: Dict[str, Any] = field(default_factory=dict, compare=False, repr=False)',
  );
  const now = fields.find((field) => field.wire === 'now' && field.type.kind === 'integer');
  if (now)
    lines.push(
      '',
      '    @property',
      '    def instant(self) -> datetime:',
      '        """`now` as an aware datetime (UTC)."""',
      '        return epoch_instant(self.now)',
    );
  const schedule = fields.find((field) => field.wire === 'schedule');
  if (schedule)
    lines.push(
      '',
      '    def __post_init__(self) -> None:',
      '        # The API answers the schedule with seconds; given as format_schedule writes it, it compares with',
      '        # format_schedule(instant). The API\'s own text stays in raw["schedule"].',
      '        if self.schedule is not None:',
      '            object.__setattr__(self, "schedule", format_schedule(self.schedule))',
      '',
      '    @property',
      '    def scheduled_at(self) -> Optional[datetime]:',
      '        """The schedule as an aware datetime, or None."""',
      '        return None if self.schedule is None else parse_instant(self.schedule)',
    );
  return lines.join('\n');
}

function answersFile(contract, model) {
  const documents = [...model.documents].join(', ');
  return `# ${generatedMark}
${docstring(`What the control operations answer, as frozen dataclasses (their JSON Schemas are the kit contract's \`answers\`, the emulator's OpenAPI document's components/schemas): field names in snake_case, read from the answer's camelCase; \`raw\` keeps the answer as parsed. The ${documents} answers are documents, taken back as they were read: a dict.`, '').join('\n')}

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import (
    Any,
    Dict,
    Generic,
    List,
    Literal,
    Optional,
    Type,
    TypeVar,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

from .schedule import format_schedule, parse_instant

T = TypeVar("T")


def decode(kind: Any, value: Any) -> Any:
    """A JSON value as \`kind\`: a dataclass of this module (by its fields), a list or Optional of one, or as it is."""
    if value is None:
        return None
    origin = get_origin(kind)
    if origin is Union:
        inner = [arg for arg in get_args(kind) if arg is not type(None)]
        return decode(inner[0], value) if len(inner) == 1 else value
    if origin in (list, List):
        (item,) = get_args(kind) or (Any,)
        return [decode(item, entry) for entry in value]
    if isinstance(kind, type) and dataclasses.is_dataclass(kind) and isinstance(value, dict):
        return from_json(kind, value)
    return value


def from_json(kind: Type[T], data: Dict[str, Any]) -> T:
    """Builds the dataclass \`kind\` from an answer: each field from its JSON name (the field's metadata "json", else its
    own); a field the answer leaves out takes its default; \`raw\` keeps the answer."""
    hints = get_type_hints(kind)
    given: Dict[str, Any] = {}
    for item in dataclasses.fields(kind):  # type: ignore[arg-type]
        if item.name == "raw":
            continue
        name = item.metadata.get("json", item.name)
        if name in data:
            given[item.name] = decode(hints[item.name], data[name])
    return kind(**given, raw=data)  # type: ignore[call-arg]


def epoch_instant(milliseconds: int) -> datetime:
    """Epoch milliseconds as an aware datetime (UTC)."""
    return datetime.fromtimestamp(milliseconds / 1000, tz=timezone.utc)


@dataclass(frozen=True)
class Page(Generic[T]):
    """One page of a control list: \`items\`, \`total\` matches, \`page\` (from 1) and \`limit\`."""

    items: List[T]
    total: int
    page: int
    limit: int


def page_of(kind: Any, data: Dict[str, Any]) -> "Page[Any]":
    """A list's answer as a Page of \`kind\`."""
    return Page([decode(kind, item) for item in data["items"]], data["total"], data["page"], data["limit"])


${model.records.map(recordClass).join('\n\n\n')}
`;
}

// The control methods -------------------------------------------------------------------------------------------------

/** One argument of a method: its Python name, annotation, default (or none), how it is sent, and its doc. */
function bodyArgument(wire, schema, required, shapeOwner, shapes) {
  const type = inputType(schema);
  const name = snake(wire);
  const about = schema.description ?? '';
  if (schema.type === 'boolean' && schema.const === true)
    return {
      name,
      wire,
      annotation: 'bool',
      default: 'False',
      send: `True if ${name} else None`,
      about: about || `True sends \`"${wire}": true\``,
    };
  let annotation = pyType(type);
  let send = name;
  let kind = `the body's \`${wire}\``;
  if (isDuration(schema)) {
    annotation = 'Duration';
    send = `duration_value(${name})`;
    kind = 'a duration: text such as "15m", milliseconds or a timedelta';
  } else if (instantFields.has(wire)) {
    annotation = 'Instant';
    send = `instant_value(${name})`;
    kind = 'an instant: ISO 8601 text or an aware datetime';
  } else if (type.kind === 'shape') {
    annotation = 'Mapping[str, Any]';
    const constant = `_${snake(shapeOwner).toUpperCase()}_${snake(wire).toUpperCase()}`;
    shapes.set(
      constant,
      type.fields.map((inner) => [snake(inner.wire), inner.wire]),
    );
    send = `_shape(${name}, ${constant})`;
    kind = `a dict of ${type.fields.map((inner) => `\`${snake(inner.wire)}\``).join(', ')} (snake_case or camelCase)`;
  } else if (type.kind === 'list') annotation = `Sequence[${pyType(type.items)}]`;
  if (!required) {
    if (!annotation.startsWith('Optional[') && annotation !== 'Any') annotation = `Optional[${annotation}]`;
    if (send !== name) send = `None if ${name} is None else ${send}`;
  } else if (type.kind === 'list') send = `list(${name})`;
  if (!required && type.kind === 'list') send = `None if ${name} is None else list(${name})`;
  return {
    name,
    wire,
    annotation,
    default: required ? undefined : 'None',
    send,
    about: [
      schema.description,
      kind === `the body's \`${wire}\`` && schema.description ? '' : kind,
      allowed(type).trim(),
    ]
      .filter(Boolean)
      .join('; '),
  };
}

/** `name = _fields({...})`: the wire names and values of a body or query, one a line when they do not fit on one. */
function assignment(name, args) {
  const entries = args.map((arg) => `${pyString(arg.wire)}: ${arg.send}`);
  const one = `        ${name} = _fields({${entries.join(', ')}})`;
  if (one.length <= width) return [one];
  return [
    `        ${name} = _fields(`,
    '            {',
    ...entries.map((entry) => `                ${entry},`),
    '            }',
    '        )',
  ];
}

/** The name of a body that is not an object of named fields: a document (a scenario, a snapshot) after its path. */
function wholeBodyName(operation, documents) {
  if (documents.has(operation.answer) || operation.method === 'PUT')
    return snake(
      operation.path
        .split('/')
        .filter((part) => part && !part.startsWith('{'))
        .pop(),
    );
  return 'body';
}

function method(operation, model, documents, shapes, rows = []) {
  const args = operation.params.map((param) => ({
    name: snake(param),
    annotation: 'str',
    about: `the path's \`{${param}}\``,
  }));
  const bodyLines = [];
  let body = 'None';
  let text = null;
  if (operation.body && operation.input?.type === 'object') {
    const required = new Set(operation.input.required ?? []);
    const fields = Object.entries(operation.input.properties ?? {}).map(([wire, schema]) =>
      bodyArgument(wire, schema, required.has(wire), operation.id.replace('.', '_'), shapes),
    );
    args.push(
      ...fields.filter((field) => field.default === undefined),
      ...fields.filter((f) => f.default !== undefined),
    );
    bodyLines.push(...assignment('body', fields));
    body = 'body';
  } else if (operation.body) {
    const name = wholeBodyName(operation, documents);
    args.push({
      name,
      annotation: operation.bodyText ? 'Scenario' : 'Mapping[str, Any]',
      about: operation.bodyText ? 'a dict (sent as JSON), or YAML or JSON text' : 'the JSON body',
    });
    if (operation.bodyText) text = name;
    else body = `dict(${name})`;
  }
  const query = operation.query.map((wire) => ({
    name: snake(wire),
    wire,
    annotation: 'Optional[QueryValue]',
    default: 'None',
    send: snake(wire),
    about: `the query's \`${wire}\``,
  }));
  if (operation.pages)
    query.push(
      {
        name: 'page',
        wire: 'page',
        annotation: 'Optional[int]',
        default: 'None',
        send: 'page',
        about: 'the page, from 1',
      },
      {
        name: 'limit',
        wire: 'limit',
        annotation: 'Optional[int]',
        default: 'None',
        send: 'limit',
        about: 'items a page',
      },
    );
  args.push(...query);
  const names = args.map((arg) => arg.name);
  if (new Set(names).size !== names.length) throw new Error(`kitgen python: ${operation.id} repeats an argument name`);
  const queryText = query.length === 0 ? 'None' : 'query';
  if (query.length > 0) bodyLines.push(...assignment('query', query));
  const path = operation.path.replace(/\{(\w+)\}/g, (_, param) => `{self.quote(${snake(param)})}`);
  const pathText = operation.params.length > 0 ? `f${pyString(path)}` : pyString(path);
  if (text)
    // YAML or JSON text goes as text, a dict as JSON.
    bodyLines.push(
      `        ${text}_text = ${text} if isinstance(${text}, str) else None`,
      `        ${text}_json = None if isinstance(${text}, str) else dict(${text})`,
    );
  const sent = text ? `${text}_json` : body;
  const textArg = text ? `, ${text}_text` : '';
  let answer = 'None';
  let result = `self.call(${pyString(operation.method)}, ${pathText}, ${sent}, ${queryText}${textArg})`;
  if (operation.answer !== null) {
    const type = model.answers.get(operation.answer);
    const item = pyType(type);
    if (operation.pages) {
      answer = `Page[${item}]`;
      result = `page_of(${item}, ${result})`;
    } else if (type.kind === 'record') {
      answer = item;
      result = `from_json(${item}, ${result})`;
    } else if (type.kind === 'integer' || type.kind === 'string' || type.kind === 'number') {
      answer = item;
      result = `${item}(${result})`;
    } else answer = item;
  }
  const signature = [
    'self',
    ...args.map((arg) => `${arg.name}: ${arg.annotation}${arg.default !== undefined ? ` = ${arg.default}` : ''}`),
  ];
  const head = `    def ${operation.names.python}(${signature.join(', ')}) -> ${answer}:`;
  const lines =
    head.length <= width
      ? [head]
      : [
          `    def ${operation.names.python}(`,
          ...signature.flatMap((part) => fitted('        ', part, ',')),
          `    ) -> ${answer}:`,
        ];
  const described = args.filter((arg) => arg.name !== 'self');
  const doc = [
    ...wrapWords(operation.summary, width - 11),
    '',
    `\`${operation.method} ${operation.path}\`${operation.answer ? `; answers ${operation.pages ? `a page of ${operation.answer}` : operation.answer}` : ''}.`,
    ...(described.length > 0
      ? [
          '',
          'Args:',
          ...described.flatMap((arg) =>
            wrapWords(`${arg.name}: ${arg.about || `the \`${arg.wire}\``}`, width - 12).map(
              (line, index) => `${index === 0 ? '    ' : '        '}${line}`,
            ),
          ),
        ]
      : []),
  ];
  lines.push('        """' + doc[0], ...doc.slice(1).map((line) => (line ? `        ${line}` : '')), '        """');
  lines.push(...bodyLines);
  lines.push(operation.answer === null ? `        ${result}` : `        return ${result}`);
  rows.push({ operation, args, answer });
  return lines.join('\n');
}

function controlFile(contract, model) {
  const documents = documentAnswers(contract);
  // The snake_case names of each nested object a body takes, by the constant that holds them.
  const shapes = new Map();
  const methods = contract.operations.map((operation) => method(operation, model, documents, shapes));
  const shapeConstants = [...shapes].flatMap(([constant, names]) => [
    `${constant} = {`,
    ...names.map(([key, value]) => `    ${pyString(key)}: ${pyString(value)},`),
    '}',
  ]);
  const records = [
    ...new Set(
      contract.operations
        .map((op) => model.answers.get(op.answer))
        .filter((t) => t?.kind === 'record')
        .map((t) => className(t.name)),
    ),
  ].sort();
  return `# ${generatedMark}
${docstring('The emulator\'s control API (/_emulator): one typed method per operation of the kit contract, named as it names them for Python; the kit\'s only door into the emulator. Durations take text such as "15m", milliseconds or a timedelta; instants ISO text or an aware datetime; lists answer a Page.', '').join('\n')}

from datetime import datetime
from typing import Any, Dict, List, Literal, Mapping, Optional, Sequence, Union

from .answers import (
${records.map((name) => `    ${name},`).join('\n')}
    Page,
    from_json,
    page_of,
)
from .schedule import Duration, Instant, duration_value, instant_value
from .settings import CONTROL_PATH
from .transport import ControlError, ControlTransport, Scenario

__all__ = ["CONTROL_PATH", "Control", "ControlError", "QueryValue", "Scenario"]

#: A query value: text, a number, or an aware datetime (sent as ISO text).
QueryValue = Union[str, int, datetime]


def _fields(given: Mapping[str, Any]) -> Dict[str, Any]:
    """A JSON body or query by wire names: the values left as None dropped, a datetime as ISO text."""
    return {
        name: instant_value(value) if isinstance(value, datetime) else value
        for name, value in given.items()
        if value is not None
    }


def _shape(value: Mapping[str, Any], names: Mapping[str, str]) -> Dict[str, Any]:
    """A nested object of a body: its snake_case keys as their wire names (camelCase keys are taken as they are)."""
    return {names.get(key, key): item for key, item in value.items()}


#: The wire names of the snake_case keys of each nested object a body takes.
${shapeConstants.join('\n')}


class Control(ControlTransport):
    """Calls \`<origin>/_emulator<path>\`; an error answer raises ControlError, no answer raises ControlError NO_ANSWER.

    Each operation of the control API is a method; \`call(method, path, ...)\` reaches one raw."""

${methods.join('\n\n')}
`;
}

// The settings --------------------------------------------------------------------------------------------------------

function settingsFile(contract) {
  const { settings } = contract;
  const grammar = settings.durationGrammar;
  const constant = (name, description, value) => [
    ...comment(description, '', '#:'),
    ...(`${name} = ${value}`.length <= width || !value.startsWith('"')
      ? [`${name} = ${value}`]
      : [
          `${name} = (`,
          ...wrapWords(JSON.parse(value), width - 8).map(
            (line, index, all) => `    ${pyString(index < all.length - 1 ? `${line} ` : line)}`,
          ),
          ')',
        ]),
  ];
  const timeouts = [
    ['START_TIMEOUT', settings.startTimeout],
    ['CONTROL_TIMEOUT', settings.controlTimeout],
    ['WAIT_WITHIN', settings.waitWithin],
  ].flatMap(([name, setting]) => [
    ...constant(name, `${setting.description} Default: ${setting.default}.`, pyString(setting.default)),
    ...(setting.env
      ? constant(`${name}_ENV`, `The environment variable that sets ${name}.`, pyString(setting.env))
      : []),
  ]);
  const units = Object.keys(grammar.units).sort((a, b) => b.length - a.length);
  return `# ${generatedMark}
${docstring("The settings every front door shares (the kit contract's `settings`): the defaults, the error prefix and the one duration grammar, so `2m` is two minutes here as in every kit; the contract's control path; and the image, port, health path and variables of its `container`.", '').join('\n')}

import re

#: The control API's path prefix (the contract's \`paths.control\`).
CONTROL_PATH = ${pyString(contract.paths.control)}
${constant('ERROR_PREFIX', 'The start of every error text the kit raises.', pyString(settings.errorPrefix)).join('\n')}
${timeouts.join('\n')}
${constant('DURATION_PATTERN', 'A duration setting, whole.', `re.compile(${pyString(grammar.pattern.replace(/\$$/, '\\Z'))}, re.ASCII)`).join('\n')}
${constant(
  'DURATION_UNITS',
  'Milliseconds per unit.',
  `{${Object.entries(grammar.units)
    .map(([unit, ms]) => `${pyString(unit)}: ${ms}`)
    .join(', ')}}`,
).join('\n')}
${constant('BARE_NUMBER_UNIT', 'The unit a bare number counts.', pyString(grammar.bareNumberUnit)).join('\n')}
${constant('MAX_DURATION_MS', 'The longest duration, in milliseconds (the shortest is more than 0).', String(grammar.maxMs)).join('\n')}
${constant('DURATION_PROBLEM', 'What a setting that is not a duration is told, with {name} and {text} filled in.', pyString(grammar.problem)).join('\n')}
${containerConstants(contract.container).join('\n')}

_PART = re.compile(r"(\\d+(?:\\.\\d+)?)(${units.join('|')})", re.ASCII)
_BARE = re.compile(r"\\d+(?:\\.\\d+)?\\Z", re.ASCII)


def duration_ms(name: str, text: str) -> int:
${docstring(`${grammar.rule} Answers the duration in milliseconds; raises ValueError naming the setting \`name\` otherwise.`, '    ').join('\n')}
    trimmed = str(text).strip()
    ms = 0.0
    if DURATION_PATTERN.match(trimmed):
        if _BARE.match(trimmed):
            trimmed += BARE_NUMBER_UNIT
        ms = sum(float(amount) * DURATION_UNITS[unit] for amount, unit in _PART.findall(trimmed))
    rounded = int(ms + 0.5)
    if not 0 < rounded <= MAX_DURATION_MS:
        raise ValueError(DURATION_PROBLEM.replace("{name}", name).replace("{text}", str(text)))
    return rounded
`;
}

/** The contract's `container` section, for pytest_sms_emulator.testcontainers (the Testcontainers extra). */
function containerConstants(container) {
  const constant = (name, description, value) => [...comment(description, '', '#:'), `${name} = ${value}`];
  return [
    ...constant(
      'CONTAINER_IMAGE',
      "The image a container starts by default (the contract's `container.image`: `npm run image` builds it).",
      pyString(container.image),
    ),
    ...constant(
      'CONTAINER_IMAGE_ENV',
      'The environment variable that names another image.',
      pyString(container.imageEnv),
    ),
    ...constant('CONTAINER_PORT', 'The port the emulator listens on inside the container.', String(container.port)),
    ...constant(
      'CONTAINER_HEALTH_PATH',
      'The path that answers 200 once the emulator is ready (open without the control token).',
      pyString(container.healthPath),
    ),
    ...constant(
      'CONTAINER_CONTROL_TOKEN_ENV',
      "The container's variable for its control token (a fresh one for each container).",
      pyString(container.controlTokenEnv),
    ),
    ...constant(
      'CONTAINER_ALLOWED_HOSTS_ENV',
      "The container's variable for the names other containers reach it by (comma-separated).",
      pyString(container.allowedHostsEnv),
    ),
  ];
}

/** The Python kit's generated files. */
/** A table cell: no pipe or line break of its own. */
function cell(text) {
  return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
}

/** docs/python-control.md: every method of Control with its arguments, its answer and what it does. */
function docsFile(contract, model) {
  const rows = [];
  for (const operation of contract.operations) method(operation, model, documentAnswers(contract), new Map(), rows);
  const table = rows.map(({ operation, args, answer }) => {
    const given = args
      .map((arg) => `\`${arg.name}: ${arg.annotation}${arg.default !== undefined ? ` = ${arg.default}` : ''}\``)
      .join(', ');
    return `| \`${operation.names.python}\` | ${cell(given)} | \`${cell(answer)}\` | \`${operation.method} ${operation.path}\` | ${cell(operation.summary)} |`;
  });
  return `<!-- ${generatedMark} -->

# Python: every control method

\`sms.control\` (a \`pytest_sms_emulator.Control\`) has one method per operation of the [control API](control-api.md),
written from the kit contract with this page ([the pytest kit](python.md)). Arguments come in this order: the path's
parameters, the body's fields (required ones first), the query's, then \`page\` and \`limit\` for a list. A \`Duration\`
is text such as \`"15m"\`, milliseconds or a \`timedelta\`; an \`Instant\` ISO 8601 text or an aware \`datetime\`; a
\`QueryValue\` text, a number or an aware \`datetime\`. Answers are the dataclasses of \`pytest_sms_emulator.answers\`.

| method | arguments | answers | operation | what it does |
|---|---|---|---|---|
${table.join('\n')}
`;
}

export function kitFiles(contract) {
  const model = answerTypes(contract);
  return [
    { path: 'docs/python-control.md', text: docsFile(contract, model) },
    { path: `${folder}/answers.py`, text: answersFile(contract, model) },
    { path: `${folder}/control.py`, text: controlFile(contract, model) },
    { path: `${folder}/settings.py`, text: settingsFile(contract) },
  ];
}
