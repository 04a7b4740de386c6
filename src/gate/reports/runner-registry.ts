import { jestRunner } from './runners/jest.js'
import { mochaRunner } from './runners/mocha.js'
import { nodeTestRunner } from './runners/node-test.js'
import { pytestRunner } from './runners/pytest.js'
import { unittestRunner } from './runners/unittest.js'
import { vitestRunner } from './runners/vitest.js'
import type { TestRunner } from './test-runner.js'

/**
 * Every test runner the gate reads, one file each under `runners/`. When one output holds several
 * runners' summaries, the first runner's count is the one read.
 */
export const TEST_RUNNERS: readonly TestRunner[] = [jestRunner, vitestRunner, pytestRunner, nodeTestRunner, mochaRunner, unittestRunner]
