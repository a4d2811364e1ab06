/**
 * @module
 * What a file of operations of your own is given (`({ defineOperation, z }) => [...]`), so that
 * it needs no install; the shipped examples are such a function: `hostScreens(operationKit)`.
 * Apart from the core: `z` as a value keeps every zod function, which a browser bundle of the
 * sandbox alone does not need.
 */
import type { AnyOperationDeclaration } from './core/index.ts'
import { defineOperation, listPage, pageQuery, rulesOn, SandboxError } from './core/index.ts'
import { z } from './model/zod.ts'

export const operationKit = { defineOperation, z, listPage, pageQuery, rulesOn, SandboxError }
export type OperationKit = typeof operationKit

/** A file's default export: the operations, or a function of the kit that returns them. */
export type OperationsExport =
  | readonly AnyOperationDeclaration[]
  | ((kit: OperationKit) => readonly AnyOperationDeclaration[])
