export {
  createSandboxClient,
  type SandboxClient,
  type SandboxClientOptions,
  type SandboxClientRequest,
  type SandboxReply,
  SESSION_COOKIE,
  SESSION_HEADER,
  signIn,
} from '../../mocks/sandbox-client/sandbox-client.ts'
