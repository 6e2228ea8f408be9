// The PHP kit's generated surface (kits/php/src/): every control operation as a method of the ControlOperations trait
// with its documented arguments, the answers as PHPStan array shapes (Answers), and the shared settings with the one
// duration grammar (Settings). Answers stay the decoded JSON arrays, so `$answer['status']` reads as it always did.
import { generatedMark } from '../generatedKitFiles.js';
import { controlReference } from '../controlReference.js';
import { answerTypes, inputType } from '../answerTypes.js';
import { wrapWords } from '../wrapWords.js';

const width = 112;

/** A PHP single-quoted string literal. */
function quote(text) {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** Text safe inside a doc comment. */
function docText(text) {
  return text.replace(/\*\//g, '*\\/');
}

/** Doc comment lines (each starting with ` * `, indented) for a paragraph. */
function docLines(text, indent) {
  return wrapWords(docText(text), width).map((line) => `${indent} * ${line}`);
}

/** A type as PHPStan writes it; records by their alias from Answers. */
function phpType(type) {
  switch (type.kind) {
    case 'string':
      return 'string';
    case 'integer':
      return 'int';
    case 'number':
      return 'int|float';
    case 'boolean':
      return 'bool';
    case 'null':
      return 'null';
    case 'enum':
      return type.values.map(quote).join('|');
    case 'list':
      return `list<${phpType(type.items)}>`;
    case 'map':
      return `array<string, ${phpType(type.values)}>`;
    case 'record':
      return type.name;
    case 'shape':
      return shape(type.fields);
    case 'union':
      return type.types.map(phpType).join('|');
    default:
      return 'mixed';
  }
}

function shapeKey(wire) {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(wire) ? wire : quote(wire);
}

function shape(fields) {
  return `array{${fields.map((field) => `${shapeKey(field.wire)}${field.required ? '' : '?'}: ${phpType(field.type)}`).join(', ')}}`;
}

/** The records an answer type names, so the trait imports exactly those aliases. */
function recordNames(type, into) {
  if (type.kind === 'record') into.add(type.name);
  for (const inner of [type.items, type.values, ...(type.types ?? [])]) if (inner) recordNames(inner, into);
  return into;
}

function answersFile(contract, model) {
  const lines = [];
  for (const record of model.records) {
    lines.push(' *', ...docLines(`${record.name}: ${record.description}`, ''));
    for (const field of record.fields)
      if (field.description)
        lines.push(
          ...wrapWords(docText(`\`${field.wire}\`: ${field.description}`), width - 2).map((line) => ` *   ${line}`),
        );
  }
  const aliases = model.records.map((record) => ` * @phpstan-type ${record.name} ${shape(record.fields)}`);
  const documents = [...model.documents].map((name) => `\`${name}\``).join(', ');
  return `<?php

// ${generatedMark}

declare(strict_types=1);

namespace SmsEmulator\\PhpUnit;

/**
${docLines(`The control API's answers as array shapes, one alias per record (\`@phpstan-import-type WebhookEvent from Answers\`): answers stay the decoded JSON arrays, so \`$answer['status']\` reads as before and an analyser knows every key and its type. The ${documents} answers are documents, taken back as they were read (\`array<string, mixed>\`).`, '').join('\n')}
${lines.join('\n')}
 *
${aliases.join('\n')}
 */
final class Answers
{
}
`;
}

/** What a method answers, as its phpdoc type and its PHP return type. */
function answerOf(operation, model) {
  if (operation.answer === null) return { doc: 'void', php: 'void' };
  const type = model.answers.get(operation.answer);
  if (operation.pages)
    return { doc: `array{items: list<${phpType(type)}>, total: int, page: int, limit: int}`, php: 'array' };
  const php = { integer: 'int', string: 'string', number: 'int|float', boolean: 'bool' }[type.kind] ?? 'array';
  return { doc: phpType(type), php };
}

function method(operation, model) {
  const args = [];
  const call = [];
  const params = [];
  for (const param of operation.params) {
    args.push(`string $${param}`);
    call.push(`$${param}`);
    params.push(`     * @param string $${param} the path's \`{${param}}\``);
  }
  let body = 'null';
  if (operation.body) {
    const given = operation.input ? phpType(inputType(operation.input)) : 'array<string, mixed>';
    const type = operation.bodyText ? `${given}|string` : given;
    args.push(`${operation.bodyText ? 'array|string' : 'array'} $body = []`);
    params.push(`     * @param ${type} $body${operation.bodyText ? ' (an array as JSON, or YAML or JSON text)' : ''}`);
    body = '$body';
  }
  let query = '[]';
  if (operation.query.length > 0 || operation.pages) {
    const names = [...operation.query.map((name) => `${shapeKey(name)}?: scalar|null`)];
    if (operation.pages) names.push('page?: int', 'limit?: int');
    args.push('array $query = []');
    params.push(`     * @param array{${names.join(', ')}} $query`);
    query = '$query';
  }
  const answer = answerOf(operation, model);
  const invoke = `$this->operation(${quote(operation.id)}, [${call.join(', ')}], ${body}, ${query})`;
  return [
    '    /**',
    ...docLines(operation.summary, '    '),
    '     *',
    `     * \`${operation.method} ${operation.path}\`${operation.answer ? `; answers ${operation.pages ? `a page of ${operation.answer}` : operation.answer}` : ''}.`,
    '     *',
    ...params,
    ...(answer.doc === 'void' ? [] : [`     * @return ${answer.doc}`]),
    '     * @throws ControlException when the emulator refuses the call',
    '     */',
    `    public function ${operation.names.php}(${args.join(', ')}): ${answer.php}`,
    '    {',
    answer.php === 'void' ? `        ${invoke};` : `        return ${invoke};`,
    '    }',
  ].join('\n');
}

function operationsFile(contract, model) {
  const imported = new Set();
  for (const operation of contract.operations)
    if (operation.answer !== null) recordNames(model.answers.get(operation.answer), imported);
  const table = contract.operations.map(
    (operation) =>
      `        ${quote(operation.id)} => [${quote(operation.method)}, ${quote(operation.path)}, ${operation.status}],`,
  );
  return `<?php

// ${generatedMark}

declare(strict_types=1);

namespace SmsEmulator\\PhpUnit;

/**
 * Every control operation of the emulator, one method each, as the kit contract names them; answers are the decoded
 * JSON, typed by the array shapes of Answers.
 *
${[...imported].map((name) => ` * @phpstan-import-type ${name} from Answers`).join('\n')}
 */
trait ControlOperations
{
    /** Each operation's method, path under the control prefix, and success status, by id. */
    public const OPERATIONS = [
${table.join('\n')}
    ];

${contract.operations.map((operation) => method(operation, model)).join('\n\n')}
}
`;
}

function settingsFile(contract) {
  const { settings } = contract;
  const grammar = settings.durationGrammar;
  const units = Object.entries(grammar.units);
  const part = units
    .map(([unit]) => unit)
    .sort((a, b) => b.length - a.length)
    .join('|');
  const constant = (name, description, value) => [
    `    /** ${docText(description)} */`,
    `    public const ${name} = ${value};`,
  ];
  const timeouts = [
    ['START_TIMEOUT', settings.startTimeout],
    ['CONTROL_TIMEOUT', settings.controlTimeout],
    ['WAIT_WITHIN', settings.waitWithin],
  ].flatMap(([name, setting]) => [
    ...constant(name, `${setting.description} Default: ${setting.default}.`, quote(setting.default)),
    ...(setting.env ? constant(`${name}_ENV`, `The environment variable that sets ${name}.`, quote(setting.env)) : []),
  ]);
  return `<?php

// ${generatedMark}

declare(strict_types=1);

namespace SmsEmulator\\PhpUnit;

/**
 * The settings every front door shares (the kit contract's \`settings\`): the defaults, the error prefix and the one
 * duration grammar, so \`2m\` is two minutes here as in every kit.
 */
final class Settings
{
${constant('ERROR_PREFIX', 'The start of every error text the kit raises.', quote(settings.errorPrefix)).join('\n')}
${timeouts.join('\n')}
${constant('DURATION_PATTERN', 'A duration setting, whole (PCRE).', quote(`~${grammar.pattern}~D`)).join('\n')}
${constant('DURATION_UNITS', 'Milliseconds per unit.', `[${units.map(([unit, ms]) => `${quote(unit)} => ${ms}`).join(', ')}]`).join('\n')}
${constant('BARE_NUMBER_UNIT', 'The unit a bare number counts.', quote(grammar.bareNumberUnit)).join('\n')}
${constant('MAX_DURATION_MS', 'The longest duration, in milliseconds (the shortest is more than 0).', String(grammar.maxMs)).join('\n')}
${constant('DURATION_PROBLEM', 'What a setting that is not a duration is told, with {name} and {text} filled in.', quote(grammar.problem)).join('\n')}

    /**
${wrapWords(docText(grammar.rule), width)
  .map((line) => `     * ${line}`)
  .join('\n')}
     *
     * @return positive-int the duration in milliseconds
     * @throws \\InvalidArgumentException naming the setting when \`$text\` is not a duration
     */
    public static function durationMs(string $name, string $text): int
    {
        $trimmed = trim($text);
        $ms = 0.0;
        if (preg_match(self::DURATION_PATTERN, $trimmed) === 1) {
            if (preg_match('~^\\d+(?:\\.\\d+)?$~D', $trimmed) === 1) {
                $trimmed .= self::BARE_NUMBER_UNIT;
            }
            preg_match_all('~(\\d+(?:\\.\\d+)?)(${part})~', $trimmed, $parts, PREG_SET_ORDER);
            foreach ($parts as [, $amount, $unit]) {
                $ms += (float) $amount * self::DURATION_UNITS[$unit];
            }
        }
        $rounded = (int) round($ms);
        if ($rounded <= 0 || $rounded > self::MAX_DURATION_MS) {
            throw new \\InvalidArgumentException(strtr(self::DURATION_PROBLEM, ['{name}' => $name, '{text}' => $text]));
        }
        return $rounded;
    }
}
`;
}

/** The PHP kit's generated files. */
/** What kits/php/CONTROL.md says above its table (scripts/kitgen/controlReference.js writes the page). */
const reference = {
  title: "The PHP kit's control methods",
  intro: [
    "Every operation of the emulator's control API is a method of `Control` (`$this->sms->control`), generated from the kit",
    "contract (`src/ControlOperations.php`, with each method's doc comment). The arguments: the path's parameters first,",
    "as strings, then `$body`, an array of the body's fields by their JSON names, then `$query`, an array of the query's",
    '(with `page` and `limit` for a list). The answers are the decoded JSON, typed by the array shapes of `Answers`',
    '(`src/Answers.php`).',
  ].join(' '),
};

export function kitFiles(contract) {
  const model = answerTypes(contract);
  const operations = operationsFile(contract, model);
  return [
    { path: 'kits/php/src/ControlOperations.php', text: operations },
    controlReference(contract, { language: 'php', source: operations, ...reference }),
    { path: 'kits/php/src/Answers.php', text: answersFile(contract, model) },
    { path: 'kits/php/src/Settings.php', text: settingsFile(contract) },
  ];
}
