/**
 * @module
 * A two-function DOM helper, so the example needs no framework.
 */

type Child = Node | string | null | undefined | false

/** Creates an element with attributes (`on*` functions become listeners) and children. */
export function h(
  tag: string,
  attributes: Record<string, string | ((event: Event) => void) | undefined> = {},
  ...children: Child[]
): HTMLElement {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined) continue
    if (typeof value === 'function') element.addEventListener(name.slice(2), value)
    else element.setAttribute(name, value)
  }
  element.append(...children.filter((child): child is Node | string => Boolean(child)))
  return element
}

/** Replaces the children of `parent`. */
export function mount(parent: Element, ...children: Child[]): void {
  parent.replaceChildren(...children.filter((child): child is Node | string => Boolean(child)))
}
