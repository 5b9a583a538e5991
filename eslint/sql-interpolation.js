// House rule "user values never interpolated into SQL" (issue #25) as a lint rule. User values reach
// SQL only as bound parameters (`?`). A template literal that builds SQL may interpolate only
// expressions that cannot carry a user's text, checked by their shape:
//   - a literal, or a template whose own interpolations are all of these;
//   - a CONSTANT_CASE name (a module constant: a table list, a column list, another *_SQL), a property
//     of one (`T.navRows`), or a call of one with such arguments (`FAMILY('s')`, `COLUMNS.join(', ')`);
//   - a call of a helper that validates or quotes what it is given: ident(), quoteIdent(), sqlString();
//   - `xs.map(() => <any of these>)`, `Array(n).fill(<any of these>)`, and `.join(<any>)` of those
//     (placeholder lists like `(?, ?, ?)`: their text comes from the callback, not from `xs`);
//   - a local `const` whose value is any of these (`const target = quoteIdent(table)`), and `c ? a : b`
//     of two of these.
// Anything else is an error. Where a value is safe for a reason the rule cannot see (an alias taken
// from the store's own list, a column list from DuckDB's catalog), an eslint-disable-next-line
// comment beside it says why.
//
// Checked: the SQL argument of the engine's query methods (all, columns, arrow, exec) and the value
// of every constant whose name ends in _SQL.

const QUERY_METHODS = new Set(['all', 'columns', 'arrow', 'exec']);
const SAFE_HELPERS = new Set(['ident', 'quoteIdent', 'sqlString']);
const CONSTANT = /^[A-Z][A-Z0-9_]*$/;

/** Whether `e` is rooted at a CONSTANT_CASE name: `X`, `X.y`, `X.y.z`. */
function constantRooted(e) {
  if (e.type === 'Identifier') return CONSTANT.test(e.name);
  return e.type === 'MemberExpression' && !e.computed && constantRooted(e.object);
}

/** The value of local `const name = value`, when `id` names one. */
function constValue(context, id) {
  let scope = context.sourceCode.getScope(id);
  for (; scope; scope = scope.upper) {
    const v = scope.set.get(id.name);
    if (!v) continue;
    const def = v.defs.length === 1 ? v.defs[0] : null;
    const ok = def?.type === 'Variable' && def.parent.kind === 'const' && def.node.id.type === 'Identifier' && def.node.init;
    return ok ? def.node.init : null;
  }
  return null;
}

/** Whether `e`, one `${...}` of a SQL template, cannot carry a user's text (see the rules above). */
function safe(context, e, depth = 0) {
  if (depth > 8) return false;
  const ok = (x) => safe(context, x, depth + 1);
  switch (e.type) {
    case 'Literal':
      return true;
    case 'TemplateLiteral':
      return e.expressions.every(ok);
    case 'Identifier': {
      if (CONSTANT.test(e.name)) return true;
      const init = constValue(context, e);
      return init !== null && ok(init);
    }
    case 'MemberExpression':
      return constantRooted(e);
    case 'ConditionalExpression':
      return ok(e.consequent) && ok(e.alternate);
    case 'ArrowFunctionExpression':
      return e.body.type !== 'BlockStatement' && ok(e.body);
    case 'CallExpression': {
      const c = e.callee;
      if (c.type === 'Identifier' && SAFE_HELPERS.has(c.name)) return true;
      if (constantRooted(c)) return e.arguments.every(ok);
      if (c.type !== 'MemberExpression' || c.computed) return false;
      const method = c.property.name;
      if (method === 'map' || method === 'fill') return e.arguments.length === 1 && ok(e.arguments[0]);
      if (method === 'join') return ok(c.object) && e.arguments.every(ok);
      return false;
    }
    default:
      return false;
  }
}

function checkTemplate(context, node) {
  if (node?.type !== 'TemplateLiteral') return;
  for (const e of node.expressions) {
    if (!safe(context, e)) {
      context.report({ node: e, messageId: 'interpolated', data: { text: context.sourceCode.getText(e).slice(0, 60) } });
    }
  }
}

export const noInterpolatedSql = {
  meta: {
    type: 'problem',
    docs: { description: 'User values reach SQL only as bound parameters or validated identifiers.' },
    messages: {
      interpolated: 'SQL interpolates `{{text}}`, which may carry a user value: bind it as a `?` parameter, or interpolate only constants and ident()/quoteIdent()/sqlString() (eslint/sql-interpolation.js).',
    },
    schema: [],
  },
  create(context) {
    return {
      CallExpression(node) {
        const c = node.callee;
        if (c.type === 'MemberExpression' && !c.computed && QUERY_METHODS.has(c.property.name)) checkTemplate(context, node.arguments[0]);
      },
      VariableDeclarator(node) {
        if (node.id.type === 'Identifier' && node.id.name.endsWith('_SQL')) checkTemplate(context, node.init);
      },
    };
  },
};

export default { rules: { 'no-interpolated-sql': noInterpolatedSql } };
