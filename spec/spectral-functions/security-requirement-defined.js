/**
 * Spectral function: every security requirement (the document's and each operation's) names a
 * scheme of `components.securitySchemes`; an OAuth 2 requirement lists only the scopes its
 * flows define; any other scheme lists no roles, except in OpenAPI 3.1, which lets it list the
 * role names the operation needs (`bearerAuth: [admin]`). Spectral's own
 * `oas3-operation-security-defined` wants every role to be an OAuth scope.
 *
 * @module
 */
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

/** @param {unknown} value */
function isRecord(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * @param {unknown} document the whole OpenAPI document (`given: $`)
 * @returns {{ message: string, path: (string | number)[] }[]}
 */
export default function securityRequirementDefined(document) {
  if (!isRecord(document)) return []
  const schemes = isRecord(document.components?.securitySchemes)
    ? document.components.securitySchemes
    : {}
  const rolesAllowed = String(document.openapi).startsWith('3.1')
  const results = []
  /** @param {unknown} security @param {(string | number)[]} path */
  const check = (security, path) => {
    if (!Array.isArray(security)) return
    security.forEach((requirement, index) => {
      if (!isRecord(requirement)) return
      for (const [name, roles] of Object.entries(requirement)) {
        const at = [...path, index, name]
        const scheme = schemes[name]
        if (!isRecord(scheme)) {
          results.push({ message: `"${name}" is not a security scheme of the document.`, path: at })
          continue
        }
        if (!Array.isArray(roles) || roles.length === 0) continue
        if (scheme.type === 'oauth2') {
          const flows = isRecord(scheme.flows) ? Object.values(scheme.flows) : []
          const scopes = new Set(flows.flatMap((flow) => Object.keys(flow?.scopes ?? {})))
          roles.forEach((role, position) => {
            if (!scopes.has(role)) {
              results.push({
                message: `"${role}" is not a scope of "${name}".`,
                path: [...at, position],
              })
            }
          })
        } else if (scheme.type !== 'openIdConnect' && !rolesAllowed) {
          results.push({
            message: `"${name}" is not an OAuth scheme: before OpenAPI 3.1 it takes no roles.`,
            path: at,
          })
        }
      }
    })
  }
  check(document.security, ['security'])
  for (const [path, item] of Object.entries(isRecord(document.paths) ? document.paths : {})) {
    if (!isRecord(item)) continue
    for (const method of METHODS) {
      if (isRecord(item[method])) check(item[method].security, ['paths', path, method, 'security'])
    }
  }
  return results
}
