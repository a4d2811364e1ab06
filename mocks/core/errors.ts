/**
 * @module
 * The one error type (status, code, message, details, headers) and the one place error
 * answers, the contract's `ApiErrorResponseDto`, are made.
 */
import { jsonResponse, type SandboxResponse } from './http.ts'

export const errorCodes = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  408: 'REQUEST_TIMEOUT',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
  431: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
  500: 'INTERNAL_SERVER_ERROR',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
} as const

export type ErrorStatus = keyof typeof errorCodes
export type ErrorCode = (typeof errorCodes)[ErrorStatus]

/** The contract's `ApiErrorResponseDto`. */
export interface ApiErrorBody {
  message: string
  code: ErrorCode
  details?: string[]
}

export class SandboxError extends Error {
  readonly code: ErrorCode
  readonly status: ErrorStatus
  readonly details: string[] | undefined
  /** Headers the answer carries besides its JSON type: `Allow`, `WWW-Authenticate`... */
  readonly headers: Readonly<Record<string, string>>

  constructor(
    status: ErrorStatus,
    message: string,
    details?: string[],
    headers: Record<string, string> = {},
  ) {
    super(message)
    this.name = 'SandboxError'
    this.status = status
    this.details = details
    this.headers = headers
    this.code = errorCodes[status]
  }

  toBody(): ApiErrorBody {
    return this.details
      ? { message: this.message, code: this.code, details: this.details }
      : { message: this.message, code: this.code }
  }

  toResponse(): SandboxResponse {
    const response = jsonResponse(this.status, this.toBody())
    Object.assign(response.headers, this.headers)
    return response
  }
}

export const errorResponse = (error: SandboxError): SandboxResponse => error.toResponse()

/** A 500 for an unexpected exception; the caller keeps serving. */
export const internalErrorResponse = (): SandboxResponse =>
  new SandboxError(500, 'The sandbox failed to handle this request').toResponse()

export const badRequest = (message: string, details?: string[]) =>
  new SandboxError(400, message, details)
export const unauthorized = (message = 'Authentication required') => new SandboxError(401, message)
export const forbidden = (message: string) => new SandboxError(403, message)
export const notFound = (message: string) => new SandboxError(404, message)
export const conflict = (message: string) => new SandboxError(409, message)
