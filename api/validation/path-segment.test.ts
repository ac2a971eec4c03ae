import { describe, expect, it } from 'vitest';
import { pathSegmentProblems } from './path-segment.js';

describe('pathSegmentProblems', () => {
  it.each<[string, string[]]>([
    ['web-1', []],
    ['system:controller:x', []],
    ['a.b', []],
    ['a'.repeat(253), []],
    ['', ['must be non-empty']],
    ['.', ["may not be '.'"]],
    ['..', ["may not be '..'"]],
    ['a/b', ["may not contain '/'"]],
    ['50%', ["may not contain '%'"]],
    ['a'.repeat(254), ['must be no more than 253 characters']],
    ['a\nb', ['may not contain control characters']],
    ['a\u007fb', ['may not contain control characters']],
    ['café', ['may not contain non-ASCII characters']],
    // lengths are bytes, as Go measures them
    ['é'.repeat(127), ['must be no more than 253 characters', 'may not contain non-ASCII characters']],
  ])('%j', (segment, problems) => {
    expect(pathSegmentProblems(segment)).toEqual(problems);
  });
});
