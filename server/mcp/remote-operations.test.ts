/**
 * `mcp --url` makes the tool of an operation of your own from the document the sandbox serves:
 * the same tool as in process (name, text, arguments, annotations), a write's included.
 */
import { describe, expect, it } from 'vitest'
import { defineOperation, proposedDocument } from '../../mocks/core/index.ts'
import { z } from '../../mocks/model/zod.ts'
import { createSandbox } from '../../mocks/sandbox.ts'
import { operationTool } from './operation-tools.ts'
import { proposedOperations } from './remote-operations.ts'
import { listedTool } from './tool.ts'

const acceptBooking = defineOperation({
  id: 'acceptBooking',
  method: 'PATCH',
  path: '/host/bookings/{bookingId}',
  summary: 'The host accepts a pending booking',
  description: 'The booking screen accepts one. Its reference has no such write.',
  auth: { role: 'host' },
  dryRun: true,
  query: z.object({ notify: z.optional(z.enum(['true', 'false'])) }),
  body: z.object({ status: z.literal('accepted'), note: z.optional(z.string()) }),
  responses: { 200: { schema: z.object({ id: z.string(), status: z.string() }) } },
  answer: ({ params, body }) => ({ id: params.bookingId!, status: body.status }),
})

describe('the tools of a sandbox’s own operations, from its document', () => {
  it('are the tools made in process: path parameter, query, body and dryRun', () => {
    const { operations } = createSandbox({ operations: [acceptBooking] })
    const inProcess = operations.filter((operation) => operation.proposed)
    const served = proposedOperations(proposedDocument({ paths: {} }, operations))
    const listed = served.map((operation) => listedTool(operationTool(operation)))
    expect(listed).toEqual(inProcess.map((operation) => listedTool(operationTool(operation))))
    expect(listed).toHaveLength(1)
    expect(served[0]?.role).toBe('host')
    expect(listed[0]).toMatchObject({
      name: 'acceptBooking',
      title: 'The host accepts a pending booking',
      description: 'The host accepts a pending booking: The booking screen accepts one.',
      annotations: { readOnlyHint: false, destructiveHint: true },
      inputSchema: {
        properties: {
          bookingId: { type: 'string' },
          dryRun: { type: 'boolean' },
          body: { properties: { status: { const: 'accepted' } }, required: ['status'] },
          query: { properties: { notify: { enum: ['true', 'false'] } } },
        },
        required: expect.arrayContaining(['bookingId']),
      },
    })
  })

  it('lists none of the published operations, and takes anything where zod cannot read a schema', () => {
    const document = {
      paths: {
        '/payprov/account-status': { get: { operationId: 'getAccountStatus' } },
        '/odd/{id}': {
          post: {
            operationId: 'oddWrite',
            'x-sandbox-proposed': true,
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
            requestBody: { content: { 'application/json': { schema: { $ref: '#/nowhere' } } } },
          },
        },
      },
    }
    const served = proposedOperations(document)
    expect(served.map((operation) => [operation.id, operation.method, operation.path])).toEqual([
      ['oddWrite', 'POST', '/odd/{id}'],
    ])
    expect(served[0]!.body?.['~standard'].validate({ any: 'thing' })).toEqual({
      value: { any: 'thing' },
    })
  })
})
