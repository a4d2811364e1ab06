/**
 * @module
 * What a file of operations of your own is given (`({ defineOperation, z }) => [...]`), so that
 * it needs no install; the shipped examples are such a function: `hostScreens(operationKit)`.
 * Apart from the core: `z` as a value keeps every zod function, which a browser bundle of the
 * sandbox alone does not need.
 */
import { SandboxError } from './core/errors.ts'
import { rulesOn } from './core/rules-on.ts'
import { defineOperation, listPage, pageQuery } from './core/user-operation.ts'
import { z } from './model/zod.ts'

export const operationKit = { defineOperation, z, listPage, pageQuery, rulesOn, SandboxError }
export type OperationKit = typeof operationKit

/** A file's default export: the operations, or a function of the kit that returns them. */
export type OperationsExport =
  | readonly import('./core/user-operation.ts').AnyOperationDeclaration[]
  | ((kit: OperationKit) => readonly import('./core/user-operation.ts').AnyOperationDeclaration[])
