'use strict';
// Strict field checks from TypeScript declarations. Kubernetes' OpenAPI schemas (and so
// kubernetes-models' validate()) accept unknown fields, which the API server then drops or
// rejects; a misspelt field (readinessprobe) would pass. The models' .d.ts files list every field
// of every type, so walking an object along them finds fields that do not exist, missing
// required fields, wrong primitive types and values outside a string-literal union.
//
// Understands the subset of TypeScript those generated files use: interfaces, type aliases,
// object literals with quoted keys and index signatures, Array<T>, T[], unions, string literals,
// primitives, and named imports.

const fs = require('fs');
const path = require('path');

class DtsSchemas {
  // nodeModules: the folder holding kubernetes-models and @kubernetes-models/*.
  constructor(nodeModules) {
    this.nodeModules = nodeModules;
    this.files = new Map();
  }

  // The type named `name` as declared or re-exported by `file` (an absolute .d.ts path).
  typeOf(file, name) {
    const decls = this.load(file);
    const target = decls.exportAs.get(name) || name;
    if (decls.types.has(target)) return { file, type: decls.types.get(target)() };
    if (decls.imports.has(target)) {
      const imp = decls.imports.get(target);
      return this.typeOf(imp.file, imp.name);
    }
    throw new Error(`${file}: no type ${name}`);
  }

  // The models (ES modules) import "./Foo.js" for Foo.d.ts; a package's root declarations may be
  // where its package.json's "types" (or exports' "types") points.
  resolveModule(fromFile, spec) {
    const base = (spec.startsWith('.') ? path.resolve(path.dirname(fromFile), spec)
      : path.join(this.nodeModules, spec)).replace(/\.js$/, '');
    const candidates = [`${base}.d.ts`, path.join(base, 'index.d.ts')];
    const pkgFile = path.join(base, 'package.json');
    if (!spec.startsWith('.') && fs.existsSync(pkgFile)) {
      const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8'));
      const exp = pkg.exports && (pkg.exports['.'] || pkg.exports);
      for (const t of [exp && exp.types, pkg.types, pkg.typings]) {
        if (typeof t === 'string') candidates.push(path.join(base, t));
      }
    }
    for (const candidate of candidates) {
      if (fs.existsSync(candidate)) return candidate;
    }
    throw new Error(`${fromFile}: cannot resolve ${spec}`);
  }

  load(file) {
    if (this.files.has(file)) return this.files.get(file);
    const text = fs.readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    const decls = { types: new Map(), imports: new Map(), exportAs: new Map() };
    for (const m of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*"([^"]+)"/g)) {
      for (const part of m[1].split(',').map((s) => s.trim()).filter(Boolean)) {
        const [name, alias] = part.split(/\s+as\s+/);
        decls.imports.set(alias || name, { name, spec: m[2] });
      }
    }
    for (const [, imp] of decls.imports) {
      Object.defineProperty(imp, 'file', {
        get: () => this.resolveModule(file, imp.spec),
      });
    }
    for (const m of text.matchAll(/export\s*(?:type\s*)?\{([^}]*)\}\s*;/g)) {
      for (const part of m[1].split(',').map((s) => s.trim()).filter(Boolean)) {
        const [name, alias] = part.split(/\s+as\s+/);
        if (alias) decls.exportAs.set(alias, name);
      }
    }
    // Declarations are parsed when first used: files also declare classes and generics that
    // the walk never needs.
    const tokens = tokenize(text);
    for (let i = 0; i < tokens.length; i++) {
      if (tokens[i] === 'interface') {
        // "extends A, B": the fields of the bases too (TypeMeta's apiVersion and kind are
        // declared again in the body).
        let body = i + 2;
        const bases = [];
        while (tokens[body] !== '{') {
          if (/^[A-Za-z_$]/.test(tokens[body]) && tokens[body] !== 'extends' && tokens[body] !== 'TypeMeta') bases.push(tokens[body]);
          body++;
        }
        decls.types.set(tokens[i + 1], lazy(() => ({ ...new Parser(tokens, body).parseObject(), bases })));
      } else if (tokens[i] === 'type' && tokens[i + 2] === '=') {
        decls.types.set(tokens[i + 1], lazy(() => new Parser(tokens, i + 3).parseType()));
      }
    }
    this.files.set(file, decls);
    return decls;
  }

  // Walks `value` along the type `name` of `file`; returns messages naming the paths.
  check(value, file, name) {
    const errors = [];
    const { file: f, type } = this.typeOf(file, name);
    this.walk(value, type, f, '', errors);
    return errors;
  }

  // An interface's fields with those of the interfaces it extends, each with the file its type
  // names resolve in.
  fields(type, file) {
    const props = new Map();
    let index = type.index ? { type: type.index, file } : null;
    for (const base of type.bases || []) {
      const resolved = this.typeOf(file, base);
      if (resolved.type.k !== 'object') throw new Error(`${file}: base ${base} is not an interface`);
      const inherited = this.fields(resolved.type, resolved.file);
      for (const [key, prop] of inherited.props) props.set(key, prop);
      index = index || inherited.index;
    }
    for (const [key, prop] of type.props) props.set(key, { ...prop, file });
    return { props, index };
  }

  walk(value, type, file, at, errors) {
    if (value === null || value === undefined) return;
    switch (type.k) {
      case 'ref': {
        if (['string', 'number', 'boolean'].includes(type.name)) {
          if (typeof value !== type.name) errors.push(`${at || '/'}: expected ${type.name}`);
          return;
        }
        if (['any', 'unknown', 'object', 'Date'].includes(type.name)) return;
        const resolved = this.typeOf(file, type.name);
        this.walk(value, resolved.type, resolved.file, at, errors);
        return;
      }
      case 'lit':
        if (value !== type.value) errors.push(`${at}: expected ${JSON.stringify(type.value)}`);
        return;
      case 'array':
        if (!Array.isArray(value)) {
          errors.push(`${at}: expected a list`);
          return;
        }
        value.forEach((v, i) => this.walk(v, type.of, file, `${at}/${i}`, errors));
        return;
      case 'object': {
        if (typeof value !== 'object' || Array.isArray(value)) {
          errors.push(`${at || '/'}: expected an object`);
          return;
        }
        const { props, index } = this.fields(type, file);
        for (const [key, v] of Object.entries(value)) {
          const prop = props.get(key);
          if (prop) this.walk(v, prop.type, prop.file, `${at}/${key}`, errors);
          else if (index) this.walk(v, index.type, index.file, `${at}/${key}`, errors);
          else errors.push(`${at}/${key}: no such field`);
        }
        for (const [key, prop] of props) {
          if (!prop.optional && !(key in value)) errors.push(`${at}/${key}: required field missing`);
        }
        return;
      }
      case 'union': {
        if (type.of.every((m) => m.k === 'lit')) {
          if (!type.of.some((m) => m.value === value)) {
            errors.push(`${at}: ${JSON.stringify(value)} is not one of ${type.of.map((m) => JSON.stringify(m.value)).join(', ')}`);
          }
          return;
        }
        // Accept the value when any member accepts it; report the closest member's errors.
        let best = null;
        for (const member of type.of) {
          const errs = [];
          this.walk(value, member, file, at, errs);
          if (errs.length === 0) return;
          if (best === null || errs.length < best.length) best = errs;
        }
        errors.push(...best);
        return;
      }
      default:
        throw new Error(`unknown type kind ${type.k}`);
    }
  }
}

function lazy(make) {
  let value;
  return () => {
    if (value === undefined) value = make();
    return value;
  };
}

function tokenize(text) {
  const tokens = [];
  const re = /\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[A-Za-z_$][\w$.]*|-?\d+(?:\.\d+)?|\S)/gy;
  let m;
  while ((m = re.exec(text)) !== null) tokens.push(m[1]);
  return tokens;
}

class Parser {
  constructor(tokens, pos) {
    this.t = tokens;
    this.i = pos;
  }

  peek() { return this.t[this.i]; }

  next() { return this.t[this.i++]; }

  expect(tok) {
    const got = this.next();
    if (got !== tok) throw new Error(`.d.ts parse: expected ${tok}, got ${got}`);
  }

  // { "key"?: T; [key: string]: T; }
  parseObject() {
    this.expect('{');
    const props = new Map();
    let index = null;
    while (this.peek() !== '}') {
      if (this.peek() === '[') {
        this.next();
        this.next();
        this.expect(':');
        this.next();
        this.expect(']');
        this.expect(':');
        index = this.parseType();
      } else {
        let key = this.next();
        if (/^["']/.test(key)) key = JSON.parse(key.replace(/^'|'$/g, '"'));
        let optional = false;
        if (this.peek() === '?') {
          this.next();
          optional = true;
        }
        this.expect(':');
        props.set(key, { type: this.parseType(), optional });
      }
      if (this.peek() === ';' || this.peek() === ',') this.next();
    }
    this.expect('}');
    return { k: 'object', props, index };
  }

  parseType() {
    if (this.peek() === '|') this.next();
    const members = [this.parsePostfix()];
    while (this.peek() === '|') {
      this.next();
      members.push(this.parsePostfix());
    }
    return members.length === 1 ? members[0] : { k: 'union', of: members };
  }

  parsePostfix() {
    let type = this.parsePrimary();
    while (this.peek() === '[' && this.t[this.i + 1] === ']') {
      this.i += 2;
      type = { k: 'array', of: type };
    }
    return type;
  }

  parsePrimary() {
    const tok = this.peek();
    if (tok === '{') return this.parseObject();
    if (tok === '(') {
      this.next();
      const inner = this.parseType();
      this.expect(')');
      return inner;
    }
    this.next();
    if (/^["']/.test(tok)) return { k: 'lit', value: JSON.parse(tok.replace(/^'|'$/g, '"')) };
    if (/^-?\d/.test(tok)) return { k: 'lit', value: Number(tok) };
    if (tok === 'true' || tok === 'false') return { k: 'lit', value: tok === 'true' };
    if (tok === 'Array') {
      this.expect('<');
      const of = this.parseType();
      this.expect('>');
      return { k: 'array', of };
    }
    if (!/^[A-Za-z_$]/.test(tok)) throw new Error(`.d.ts parse: unexpected ${tok}`);
    return { k: 'ref', name: tok };
  }
}

module.exports = { DtsSchemas };
