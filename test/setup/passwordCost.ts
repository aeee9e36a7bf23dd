import { setScryptCostForTests } from '../../src/server/features/auth/password.js';

// Every server test file: passwords and phone PINs hash at scrypt N=2^10 instead of the production
// N=2^17 (about 0.4 s of CPU each, and the suite signs up and signs in hundreds of users). The
// production cost is checked where it matters: guessing.test.ts ('hashes at scrypt N=2^17 ...')
// and demoAccount.test.ts; the e2e tests run the production build, which cannot lower it.
setScryptCostForTests(2 ** 10);
