// Calls that leave out a body the API requires. The sandbox answers each with a 400, so the
// clients generated from platform-sandbox/openapi.app.json must refuse them at compile time:
// `tsc -b` fails if any line below compiles (an unused `@ts-expect-error` is an error).
import {
  completeIdpSignIn,
  createCheckoutSession,
  signContract,
  testRefundWebhook,
  updateAmbassadorApplicationStatus,
} from './client/sdk.gen.ts'
import * as orval from './orval/platform.ts'

/** Never called: the type check is the test. */
export function callsWithoutRequiredBodies(authorization: string) {
  const headers = { authorization }
  return [
    // hey-api
    // @ts-expect-error the identity provider's code is required
    completeIdpSignIn(),
    // @ts-expect-error the identity provider's code is required
    completeIdpSignIn({}),
    // @ts-expect-error the signer's full name is required
    signContract({ path: { contractId: 'ctr_unsigned' }, headers }),
    // @ts-expect-error the booking to pay is required
    createCheckoutSession({ headers }),
    // @ts-expect-error the booking to refund is required
    testRefundWebhook({}),
    // @ts-expect-error the new status is required
    updateAmbassadorApplicationStatus({ path: { email: 'applicant@sandbox.test' }, headers }),
    // orval
    // @ts-expect-error the identity provider's code is required
    orval.completeIdpSignIn(),
    // @ts-expect-error the signer's full name is required
    orval.signContract('ctr_unsigned'),
    // @ts-expect-error the booking to pay is required
    orval.createCheckoutSession(),
    // @ts-expect-error the booking to refund is required
    orval.testRefundWebhook(),
    // @ts-expect-error the new status is required
    orval.updateAmbassadorApplicationStatus('applicant@sandbox.test'),
  ]
}
