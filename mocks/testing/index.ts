export { type ApiClient, type CallOptions, type CallResult, createApiClient } from './api-client.ts'
