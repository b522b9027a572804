import { SaxesParser, type SaxesTagNS } from 'saxes';
import { BadRequestError } from '@portal/shared';

/** An element as read: namespace URI and local name, attributes, child elements and its own text. */
export interface XmlElement {
  readonly uri: string;
  readonly local: string;
  /** Attributes without a namespace by local name; namespaced ones as `{uri}local`. */
  readonly attributes: ReadonlyMap<string, string>;
  readonly children: readonly XmlElement[];
  readonly text: string;
}

export interface ReadTreeOptions {
  readonly maxDepth: number;
  readonly maxElements: number;
  /**
   * Elements whose content the caller never reads: still counted and depth-checked, but not kept. `parent` is
   * the element it opens in (undefined for the root), so that a name can be kept in one place and not another.
   */
  readonly prune?: (
    uri: string,
    local: string,
    parent: { readonly uri: string; readonly local: string } | undefined,
  ) => boolean;
}

interface MutableElement {
  uri: string;
  local: string;
  attributes: Map<string, string>;
  children: MutableElement[];
  text: string;
}

function attributesOf(tag: SaxesTagNS): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const attribute of Object.values(tag.attributes)) {
    attributes.set(attribute.uri === '' ? attribute.local : `{${attribute.uri}}${attribute.local}`, attribute.value);
  }
  return attributes;
}

/**
 * Reads well-formed, namespace-aware XML into a small element tree with saxes, a strict streaming parser
 * that never loads a DTD nor expands an entity other than the five predefined ones and character
 * references (an undefined entity is a well-formedness error). Depth and element count are checked as each
 * tag opens, so a hostile document is refused at the first element past a bound, before the rest is read.
 * Synchronous.
 */
export function readXmlTree(text: string, options: ReadTreeOptions): XmlElement {
  const parser = new SaxesParser({ xmlns: true, position: false });
  const open: MutableElement[] = [];
  let root: MutableElement | undefined;
  let depth = 0;
  let elements = 0;
  // Depth inside a pruned subtree; 0 when outside any.
  let prunedDepth = 0;

  parser.on('error', () => {
    throw new BadRequestError('ERROR_XML_MALFORMED');
  });
  // The screen refuses any DOCTYPE before parsing; this holds even if the parser is called on its own.
  parser.on('doctype', () => {
    throw new BadRequestError('ERROR_XML_FORBIDDEN_CONTENT');
  });
  parser.on('opentagstart', () => {
    depth += 1;
    elements += 1;
    if (depth > options.maxDepth) throw new BadRequestError('ERROR_XML_TOO_DEEP', { limit: options.maxDepth });
    if (elements > options.maxElements) {
      throw new BadRequestError('ERROR_XML_TOO_LARGE', { limit: `${options.maxElements} elementos` });
    }
  });
  parser.on('opentag', (tag) => {
    if (prunedDepth > 0 || options.prune?.(tag.uri, tag.local, open.at(-1))) {
      prunedDepth += 1;
      return;
    }
    const element: MutableElement = {
      uri: tag.uri,
      local: tag.local,
      attributes: attributesOf(tag),
      children: [],
      text: '',
    };
    const parent = open.at(-1);
    if (parent) parent.children.push(element);
    else root = element;
    open.push(element);
  });
  parser.on('closetag', () => {
    depth -= 1;
    if (prunedDepth > 0) prunedDepth -= 1;
    else open.pop();
  });
  const appendText = (chunk: string) => {
    const current = open.at(-1);
    if (current && prunedDepth === 0) current.text += chunk;
  };
  parser.on('text', appendText);
  parser.on('cdata', appendText);

  parser.write(text).close();
  if (!root) throw new BadRequestError('ERROR_XML_MALFORMED');
  return root;
}

export function childrenOf(element: XmlElement, uri: string, local: string): XmlElement[] {
  return element.children.filter((child) => child.uri === uri && child.local === local);
}

export function childOf(element: XmlElement | undefined, uri: string, local: string): XmlElement | undefined {
  return element?.children.find((child) => child.uri === uri && child.local === local);
}

/** Follows a path of [uri, local] steps, first match at each step. */
export function pathOf(
  element: XmlElement | undefined,
  ...steps: [uri: string, local: string][]
): XmlElement | undefined {
  let current = element;
  for (const [uri, local] of steps) current = childOf(current, uri, local);
  return current;
}

/** Every element reached by a path of [uri, local] steps, all matches at each step. */
export function allOf(element: XmlElement, ...steps: [uri: string, local: string][]): XmlElement[] {
  let current: XmlElement[] = [element];
  for (const [uri, local] of steps) current = current.flatMap((each) => childrenOf(each, uri, local));
  return current;
}

/** The element's text with surrounding whitespace removed and inner runs collapsed; undefined when empty. */
export function textOf(element: XmlElement | undefined): string | undefined {
  const text = element?.text.replace(/\s+/g, ' ').trim();
  return text ? text : undefined;
}
