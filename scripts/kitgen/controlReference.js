// A kit's control reference page (kits/<language>/CONTROL.md), which its docs page links: every control method as the
// kit's generated source declares it, with its route, what it does, its arguments (path, body fields, query, paging,
// read from the contract) and what it answers. The Go kit writes its own (scripts/kitgen/languages/go.js) and the Python
// kit docs/python-control.md; Java, PHP and Ruby call this with the source of their generated control methods, so the
// page cannot show a signature the kit lacks.
import { generatedMark } from './generatedKitFiles.js';

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const squash = (text) =>
  text
    .replace(/\s+/g, ' ')
    .replace(/([([]) /g, '$1')
    .replace(/,? ([)\]])/g, '$1')
    .trim()
    .replace(/,$/, '');

/** Each language's method declarations, found in its generated source by the method's name (overloads included). */
const declarations = {
  java: (name) => new RegExp(`public ([^\\n(]*?) ${escapeRegExp(name)}\\(([^)]*)\\) \\{`, 'g'),
  php: (name) => new RegExp(`public function ${escapeRegExp(name)}\\(([^)]*)\\): (\\S+)\\n`, 'g'),
  ruby: (name) => new RegExp(`def ${escapeRegExp(name)}(\\([^)]*\\))?\\n`, 'g'),
};

const render = {
  java: (name, [, answer, args]) => `${answer} ${name}(${squash(args)})`,
  php: (name, [, args, answer]) => `${name}(${squash(args)}): ${answer}`,
  ruby: (name, [, args]) => `${name}${args ? squash(args) : ''}`,
};

function signatures(language, source, name) {
  const found = [...source.matchAll(declarations[language](name))].map((match) => render[language](name, match));
  if (found.length === 0) throw new Error(`kitgen ${language}: no declaration of ${name} in its control methods`);
  return found;
}

function cell(text) {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function schemaText(schema) {
  if (schema.enum) return `one of ${schema.enum.map((value) => `\`${value}\``).join(', ')}`;
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const type = types.filter((name) => name !== 'null').join(' or ');
  return `${type === 'array' && schema.items?.type ? `array of ${schemaText(schema.items)}` : type || 'any'}${types.includes('null') ? ' or null' : ''}`;
}

/** The operation's arguments as the API takes them: path parameters, body fields, query fields, paging. */
function argumentsText(operation) {
  const parts = operation.params.map((param) => `\`${param}\` fills \`{${param}}\` in the path`);
  if (operation.body) {
    const properties = Object.entries(operation.input?.properties ?? {});
    const required = new Set(operation.input?.required ?? []);
    const fields = properties.map(
      ([wire, schema]) =>
        `\`${wire}\`${required.has(wire) ? ' (required)' : ''}: ${schemaText(schema)}${schema.description ? `, ${schema.description}` : ''}`,
    );
    const text = operation.bodyText ? '; or YAML or JSON text' : '';
    parts.push(fields.length > 0 ? `body: ${fields.join('; ')}${text}` : `body: a JSON object${text}`);
  }
  const query = operation.query.map((wire) => `\`${wire}\``);
  if (operation.pages) query.push('`page` (from 1)', '`limit` (items per page)');
  if (query.length > 0) parts.push(`query: ${query.join(', ')}`);
  return parts.length > 0 ? parts.join('. ') : 'none';
}

function answerText(operation) {
  if (operation.answer === null) return 'nothing';
  return operation.pages ? `a page of ${operation.answer}` : operation.answer;
}

/**
 * The page for one kit: `source` is the text of its generated control methods, `title` the page's heading and
 * `intro` its opening paragraph (how the kit passes a body and a query, where the answer types are).
 */
export function controlReference(contract, { language, source, title, intro }) {
  const rows = contract.operations.map((operation) => {
    const name = operation.names[language];
    const heads = signatures(language, source, name)
      .map((head) => `\`${cell(head)}\``)
      .join('<br>');
    const route = `${operation.method} ${contract.paths.control}${operation.path}`;
    return `| ${heads} | \`${route}\` | ${cell(operation.summary)} | ${cell(argumentsText(operation))} | ${answerText(operation)} |`;
  });
  return {
    path: `kits/${language}/CONTROL.md`,
    text: [
      `<!-- ${generatedMark} -->`,
      '',
      `# ${title}`,
      '',
      intro,
      '',
      '| method | route | what it does | arguments | answers |',
      '|---|---|---|---|---|',
      ...rows,
      '',
    ].join('\n'),
  };
}
