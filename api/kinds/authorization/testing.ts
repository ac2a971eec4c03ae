/**
 * Test support for the review kinds (authorization and authentication): a Requester whose every
 * answer is given by the test and whose every question is recorded. Methods a test does not
 * give throw, so a review that asks the wrong question fails loudly.
 */
import type { AccessDecision, UserInfo } from '../../access.js';
import type { Requester, ReviewAttributes, TokenReviewResult } from '../../registry/resource-definition.js';
import type { PolicyRule } from '../rbac/rules.js';

export interface FakeRequester extends Requester {
  /** Every question asked, in order, with its arguments. */
  readonly asked: Array<
    | { method: 'authorize'; attributes: ReviewAttributes }
    | { method: 'authorizeSubject'; subject: Omit<UserInfo, 'tenant'>; attributes: ReviewAttributes }
    | { method: 'rulesFor'; namespace: string | undefined }
    | { method: 'reviewToken'; token: string; audiences: string[] }
  >;
}

export interface FakeAnswers {
  user?: UserInfo;
  namespace?: string;
  decision?: AccessDecision;
  rules?: PolicyRule[];
  token?: TokenReviewResult;
}

export const ALICE: UserInfo = { name: 'alice', uid: 'u-alice', groups: ['devs', 'system:authenticated'], tenant: 't1', extra: {} };

const unexpected = (method: string): never => {
  throw new Error(`unexpected Requester.${method} call`);
};

export function fakeRequester(answers: FakeAnswers = {}): FakeRequester {
  const asked: FakeRequester['asked'] = [];
  return {
    user: answers.user ?? ALICE,
    tenant: 't1',
    namespace: answers.namespace,
    asked,
    authorize: (attributes) => {
      asked.push({ method: 'authorize', attributes });
      return answers.decision ?? unexpected('authorize');
    },
    authorizeSubject: (subject, attributes) => {
      asked.push({ method: 'authorizeSubject', subject, attributes });
      return answers.decision ?? unexpected('authorizeSubject');
    },
    rulesFor: (namespace) => {
      asked.push({ method: 'rulesFor', namespace });
      return answers.rules ?? unexpected('rulesFor');
    },
    reviewToken: async (token, audiences) => {
      asked.push({ method: 'reviewToken', token, audiences });
      return answers.token ?? unexpected('reviewToken');
    },
  };
}

/** What an answer threw, as the Status a client would read: code and message. */
export async function refusal(answer: () => unknown): Promise<{ code: number; message: string }> {
  try {
    await answer();
  } catch (err) {
    const { code, message } = err as { code: number; message: string };
    return { code, message };
  }
  throw new Error('the review was answered, not refused');
}
