// The Ruby kit's generated surface (kits/ruby/lib/sms_emulator_kit/): every control operation as a method of
// ControlOperations with YARD docs of its arguments, the answers as Structs (answers.rb: `event.message_id`, while
// `event["messageId"]` still reads the JSON as parsed), and the shared settings with the one duration grammar.
import { generatedMark } from '../generatedKitFiles.js';
import { controlReference } from '../controlReference.js';
import { answerTypes, inputType } from '../answerTypes.js';
import { wrapWords } from '../wrapWords.js';

const width = 112;

/** A Ruby double-quoted string literal (no interpolation). */
function rubyString(text) {
  return JSON.stringify(text).replace(/#(?=[{@$])/g, '\\#');
}

/** `messageId` → `message_id`. */
function snake(wire) {
  return wire
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9_]/g, '')
    .toLowerCase();
}

/** Comment lines for a paragraph, at an indent. */
function comment(text, indent, hanging = '') {
  return wrapWords(text, width - hanging.length).map(
    (line, index) => `${indent}# ${index === 0 ? '' : hanging}${line}`,
  );
}

/** A type as YARD writes it; records by their Struct's name. */
function yardType(type, prefix = '') {
  switch (type.kind) {
    case 'string':
    case 'enum':
      return 'String';
    case 'integer':
      return 'Integer';
    case 'number':
      return 'Numeric';
    case 'boolean':
      return 'Boolean';
    case 'null':
      return 'nil';
    case 'list':
      return `Array<${yardType(type.items, prefix)}>`;
    case 'map':
      return `Hash{String => ${yardType(type.values, prefix)}}`;
    case 'shape':
      return 'Hash';
    case 'record':
      return `${prefix}${type.name}`;
    case 'union':
      return [...new Set(type.types.map((inner) => yardType(inner, prefix)))].join(', ');
    default:
      return 'Object';
  }
}

/** The values an enum (or a nullable enum) allows, for the comment. */
function allowed(type) {
  const values =
    type.kind === 'enum' ? type.values : type.kind === 'union' ? type.types.flatMap((t) => t.values ?? []) : [];
  return values.length > 0 ? ` One of ${values.map((value) => `"${value}"`).join(', ')}.` : '';
}

/** The record a field holds (alone, in a list, or nullable), so its value is read into that Struct. */
function heldRecord(type) {
  if (type.kind === 'record') return { name: type.name, list: false };
  if (type.kind === 'list' && type.items.kind === 'record') return { name: type.items.name, list: true };
  if (type.kind === 'union') {
    const others = type.types.filter((inner) => inner.kind !== 'null');
    if (others.length === 1) return heldRecord(others[0]);
  }
  return null;
}

function recordStruct(record) {
  const members = record.fields.map((field) => ({ ...field, member: snake(field.wire) }));
  const attributes = members.flatMap((field) => [
    `    # @!attribute [r] ${field.member}`,
    ...comment(
      `@return [${yardType(field.type)}${field.required ? '' : ', nil'}] ${field.description}${allowed(field.type)}`.trim(),
      '    ',
      '  ',
    ).map((line) => line.replace(/^ {4}# /, '    #   ')),
  ]);
  const reads = members.map((field) => {
    const held = heldRecord(field.type);
    const value = `json[${rubyString(field.wire)}]`;
    const read = held ? `Answer.${held.list ? 'many' : 'one'}(${value}, ${held.name})` : value;
    return `${field.member}: ${read}`;
  });
  return [
    ...comment(`${record.name}: ${record.description}`, '    '),
    '    #',
    ...attributes,
    `    ${record.name} = Struct.new(${members.map((field) => `:${field.member}`).join(', ')}, keyword_init: true)`,
    '',
    `    class ${record.name}`,
    '      include Answer',
    '',
    `      # @param json [Hash] the answer as parsed`,
    `      # @return [${record.name}]`,
    '      def self.from_json(json)',
    reads.length === 1
      ? `        build(json, ${reads[0]})`
      : ['        build(', '          json,', ...reads.map((read) => `          ${read},`), '        )'].join('\n'),
    '      end',
    '    end',
  ].join('\n');
}

function answersFile(contract, model) {
  const documents = [...model.documents].map((name) => `\`${name}\``).join(', ');
  return `# frozen_string_literal: true

# ${generatedMark}

require_relative "answer"

module SmsEmulatorKit
${comment(`The control API's answers as Structs, one per record of the kit contract's answers: \`event.message_id\` is typed, and \`event["messageId"]\`, \`dig\`, \`fetch\` and \`to_json\` still read the JSON as parsed (what every answer was before). The ${documents} answers are documents, taken back as they were read: a Hash.`, '  ').join('\n')}
  module Answers
    # A page of a list: \`items\` (each read into its answer's Struct), \`total\`, \`page\` and \`limit\`.
    #
    # @!attribute [r] items
    #   @return [Array]
    # @!attribute [r] total
    #   @return [Integer]
    # @!attribute [r] page
    #   @return [Integer]
    # @!attribute [r] limit
    #   @return [Integer]
    Page = Struct.new(:items, :total, :page, :limit, keyword_init: true)

    class Page
      include Answer

      # @param json [Hash] the answer as parsed
      # @param item [Class, nil] the Struct of each item (nil: items as parsed)
      # @return [Page]
      def self.from_json(json, item = nil)
        build(
          json,
          items: item ? Answer.many(json["items"], item) : json["items"],
          total: json["total"],
          page: json["page"],
          limit: json["limit"],
        )
      end
    end

${model.records.map(recordStruct).join('\n\n')}
  end
end
`;
}

/** The keys of an inline object argument, for its comment. */
function keys(type) {
  if (type.kind !== 'shape') return '';
  return ` Keys: ${type.fields.map((field) => `${rubyString(field.wire)} (${yardType(field.type, 'Answers::')})`).join(', ')}.`;
}

/** YARD `@option` lines for a body or query Hash. */
function options(name, fields) {
  return fields.flatMap((field) =>
    comment(
      `@option ${name} [${yardType(field.type, 'Answers::')}] ${rubyString(field.wire)}${field.required ? ' (required)' : ''}${field.description ? ` ${field.description}` : ''}${allowed(field.type)}${keys(field.type)}`,
      '    ',
      '  ',
    ),
  );
}

function method(operation, model) {
  const args = [...operation.params];
  const docs = operation.params.map((param) => `    # @param ${param} [String] the path's \`{${param}}\``);
  if (operation.body) {
    args.push('body = {}');
    const type = operation.input ? inputType(operation.input) : { kind: 'map' };
    docs.push(
      `    # @param body [Hash${operation.bodyText ? ', String' : ''}] the request's body${operation.bodyText ? ' (a Hash as JSON, or YAML or JSON text)' : ''}`,
    );
    if (type.kind === 'shape') docs.push(...options('body', type.fields));
  }
  const paged = operation.query.length > 0 || operation.pages;
  if (paged) {
    args.push('query = {}');
    docs.push('    # @param query [Hash] the query');
    const fields = operation.query.map((wire) => ({
      wire,
      type: { kind: 'string' },
      required: false,
      description: '',
    }));
    if (operation.pages)
      fields.push(
        { wire: 'page', type: { kind: 'integer' }, required: false, description: 'from 1' },
        { wire: 'limit', type: { kind: 'integer' }, required: false, description: 'items per page' },
      );
    docs.push(...options('query', fields));
  }
  const call = `operation(${rubyString(operation.id)}, [${operation.params.join(', ')}], ${operation.body ? 'body' : 'nil'}, ${paged ? 'query' : '{}'})`;
  let answer = 'nil';
  let body = call;
  if (operation.answer !== null) {
    const type = model.answers.get(operation.answer);
    const record = type.kind === 'record' ? `Answers::${type.name}` : null;
    if (operation.pages) {
      answer = `Answers::Page<${yardType(type, 'Answers::')}>`;
      body = `Answers::Page.from_json(${call}${record ? `, ${record}` : ''})`;
    } else {
      answer = yardType(type, 'Answers::');
      if (record) body = `${record}.from_json(${call})`;
    }
  }
  return [
    ...comment(operation.summary, '    '),
    '    #',
    `    # \`${operation.method} ${operation.path}\`${operation.answer ? `; answers ${operation.pages ? `a page of ${operation.answer}` : operation.answer}` : ''}.`,
    '    #',
    ...docs,
    `    # @return [${answer}]`,
    '    # @raise [ControlError] when the emulator refuses the call',
    `    def ${operation.names.ruby}${args.length > 0 ? `(${args.join(', ')})` : ''}`,
    `      ${body}`,
    '    end',
  ].join('\n');
}

function operationsFile(contract, model) {
  const table = contract.operations.map(
    (operation) =>
      `      ${rubyString(operation.id)} => [${rubyString(operation.method)}, ${rubyString(operation.path)}, ${operation.status}],`,
  );
  return `# frozen_string_literal: true

# ${generatedMark}

require_relative "answers"

module SmsEmulatorKit
  # Every control operation of the emulator, one method each, as the kit contract names them; answers are read into
  # the Structs of Answers.
  module ControlOperations
    # Each operation's method, path under the control prefix, and success status, by id.
    OPERATIONS = {
${table.join('\n')}
    }.freeze

${contract.operations.map((operation) => method(operation, model)).join('\n\n')}
  end
end
`;
}

/** The contract's pattern with Ruby's whole-text anchors (^ and $ match at every line in Ruby). */
function rubyPattern(pattern) {
  return `/${pattern.replace(/^\^/, '\\A').replace(/\$$/, '\\z')}/`;
}

function settingsFile(contract) {
  const { settings } = contract;
  const grammar = settings.durationGrammar;
  const units = Object.keys(grammar.units).sort((a, b) => b.length - a.length);
  const constant = (name, description, value) => [...comment(description, '    '), `    ${name} = ${value}`];
  const timeouts = [
    ['START_TIMEOUT', settings.startTimeout],
    ['CONTROL_TIMEOUT', settings.controlTimeout],
    ['WAIT_WITHIN', settings.waitWithin],
  ].flatMap(([name, setting]) => [
    ...constant(name, `${setting.description} Default: ${setting.default}.`, rubyString(setting.default)),
    ...(setting.env
      ? constant(`${name}_ENV`, `The environment variable that sets ${name}.`, rubyString(setting.env))
      : []),
  ]);
  return `# frozen_string_literal: true

# ${generatedMark}

module SmsEmulatorKit
  # The settings every front door shares (the kit contract's \`settings\`): the defaults, the error prefix and the one
  # duration grammar, so \`2m\` is two minutes here as in every kit.
  module Settings
${constant('ERROR_PREFIX', 'The start of every error text the kit raises.', rubyString(settings.errorPrefix)).join('\n')}
${timeouts.join('\n')}
${constant('DURATION_PATTERN', 'A duration setting, whole.', rubyPattern(grammar.pattern)).join('\n')}
${constant(
  'DURATION_UNITS',
  'Milliseconds per unit.',
  `{ ${Object.entries(grammar.units)
    .map(([unit, ms]) => `${rubyString(unit)} => ${ms}`)
    .join(', ')} }.freeze`,
).join('\n')}
${constant('BARE_NUMBER_UNIT', 'The unit a bare number counts.', rubyString(grammar.bareNumberUnit)).join('\n')}
${constant('MAX_DURATION_MS', 'The longest duration, in milliseconds (the shortest is more than 0).', String(grammar.maxMs)).join('\n')}
${constant('DURATION_PROBLEM', 'What a setting that is not a duration is told, with {name} and {text} filled in.', rubyString(grammar.problem)).join('\n')}

${comment(grammar.rule, '    ').join('\n')}
    #
    # @param name [String] the setting's name, for the error
    # @param text [String] what it was given
    # @return [Integer] the duration in milliseconds, more than 0
    # @raise [ArgumentError] naming the setting when \`text\` is not a duration
    def self.duration_ms(name, text)
      trimmed = text.to_s.strip
      ms = 0
      if DURATION_PATTERN.match?(trimmed)
        trimmed += BARE_NUMBER_UNIT if /\\A\\d+(?:\\.\\d+)?\\z/.match?(trimmed)
        trimmed.scan(/(\\d+(?:\\.\\d+)?)(${units.join('|')})/) { |amount, unit| ms += amount.to_f * DURATION_UNITS.fetch(unit) }
      end
      rounded = ms.round
      raise ArgumentError, DURATION_PROBLEM.gsub("{name}", name).gsub("{text}", text.to_s) unless rounded.positive? && rounded <= MAX_DURATION_MS

      rounded
    end
  end
end
`;
}

/** The Ruby kit's generated files. */
/** What kits/ruby/CONTROL.md says above its table (scripts/kitgen/controlReference.js writes the page). */
const reference = {
  title: "The Ruby kit's control methods",
  intro: [
    "Every operation of the emulator's control API is a method of the world's control client (`SmsEmulatorKit::Control`),",
    "generated from the kit contract (`lib/sms_emulator_kit/control_operations.rb`, with each method's YARD comment). The",
    "arguments: the path's parameters first, as strings, then `body`, a Hash of the body's fields by their JSON names,",
    "then `query`, a Hash of the query's (with `page` and `limit` for a list). The answers are the Structs of `Answers`",
    "(`answers.rb`; a list's as an `Answers::Page`).",
  ].join(' '),
};

export function kitFiles(contract) {
  const model = answerTypes(contract);
  const operations = operationsFile(contract, model);
  return [
    { path: 'kits/ruby/lib/sms_emulator_kit/control_operations.rb', text: operations },
    controlReference(contract, { language: 'ruby', source: operations, ...reference }),
    { path: 'kits/ruby/lib/sms_emulator_kit/answers.rb', text: answersFile(contract, model) },
    { path: 'kits/ruby/lib/sms_emulator_kit/settings.rb', text: settingsFile(contract) },
  ];
}
