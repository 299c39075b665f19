import { describe, expect, it } from 'vitest';
import { findSecrets, ibanChecksumValid, looksLikeSecret, luhnValid, redactSecrets, type SecretKind } from './secrets';

// Fake credentials are assembled from parts so that secret scanners do not flag this file.
const j = (...parts: string[]) => parts.join('');
const OPENAI_PROJ = j('sk-', 'proj-', 'Xk9mP2vQ7rT4wY8zA1bC3dE5fG6hJ0kL', '-_nM2pQ4rS6tU8vW0xY2zA4bC6dE8fG0h');
const OPENAI_LEGACY = j('sk-', 'T3BlbkFJ', 'a8Hq2Lm9Zr4Xv7Nc1Bd6Ke3Wy5Pu0Gs2Jt');
const ANTHROPIC = j('sk-', 'ant-', 'api03-', 'R7fK2mQ9xW4vB8nL1pZ6cT3yH5jD0sG_aE2uI7oN4rM9kX1wV-qAA');
const AWS_ID = j('AKIA', 'IOSFODNN7EXAMPLE');
const AWS_SESSION_ID = j('ASIA', 'Y34FZKBOKMUTVV7A');
const AWS_SECRET = j('wJalrXUtnFEMI', '/K7MDENG/bPxRfiCYEXAMPLEKEY');
const GITHUB = j('ghp_', '8fK2mQ9xW4vB8nL1pZ6cT3yH5jD0sGaE2uI7');
const GITHUB_PAT = j('github_pat_', '11ABCDEFG0123456789abc_', 'XyZ9aB8cD7eF6gH5iJ4kL3mN2oP1qR0sT9uV8wX7yZ6aB5cD4eF3gH2iJ1kL0m');
const SLACK = j('xoxb-', '2934856710-4821937465-', 'Zx8Qw2Er4Ty6Ui8Op0As2Df4');
const STRIPE = j('sk_', 'live_', '51HqLmR2eZvKYlo2C9xW4vB8nL1pZ6cT3yH5jD0sG');
const STRIPE_TEST = j('sk_', 'test_', '4eC39HqLyjWDarjtT1zdp7dc');
const GOOGLE = j('AIza', 'SyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY');
const MEM_TENANT = j('mem_', 'sk_', 'Q2hhbmdlTWVfdGVzdF9rZXlfMTIzNDU2Nzg5MGFi');
const MEM_AGENT = j('mem_', 'ak_', 'dGVzdF9hZ2VudF9rZXlfYWJjZGVmMTIzNDU2Nzg5');
const JWT = j(
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9',
  '.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ',
  '.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
);
const PEM = [
  j('-----BEGIN RSA ', 'PRIVATE KEY-----'),
  'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun',
  'VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK',
  j('-----END RSA ', 'PRIVATE KEY-----'),
].join('\n');

const kinds = (text: string): SecretKind[] => findSecrets(text).map((f) => f.kind);

describe('findSecrets: every kind in realistic chat', () => {
  const cases: Array<[string, string, SecretKind]> = [
    ['OpenAI project key', `here's my key ${OPENAI_PROJ} can you check why it fails?`, 'api_key'],
    ['OpenAI legacy key', `export OPENAI_API_KEY=${OPENAI_LEGACY}`, 'api_key'],
    ['Anthropic key', `I set ANTHROPIC_API_KEY to ${ANTHROPIC} yesterday`, 'api_key'],
    ['AWS access key id', `my access key is ${AWS_ID}`, 'api_key'],
    ['AWS session key id', `creds: ${AWS_SESSION_ID}`, 'api_key'],
    ['AWS secret access key', `aws_secret_access_key = ${AWS_SECRET}`, 'api_key'],
    ['GitHub token', `the CI uses ${GITHUB} to push`, 'api_key'],
    ['GitHub fine-grained PAT', `token ${GITHUB_PAT}`, 'api_key'],
    ['Slack bot token', `slack bot token ${SLACK}`, 'api_key'],
    ['Stripe live key', `STRIPE_KEY=${STRIPE}`, 'api_key'],
    ['Stripe test key', `testing with ${STRIPE_TEST} now`, 'api_key'],
    ['Google API key', `maps key ${GOOGLE} is restricted`, 'api_key'],
    ['our tenant key', `I pasted ${MEM_TENANT} into the config`, 'api_key'],
    ['our agent key', `agent key ${MEM_AGENT}`, 'api_key'],
    ['generic api_key=', 'api_key = "9f8e7d6cB5a4F3e2d1c0"', 'api_key'],
    ['generic "API key:" in prose', 'The API key: Qm9vBar12ZzYy98XxWw for the weather service', 'api_key'],
    ['high-entropy token', 'use Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LmNbVcXz as the webhook secret', 'api_key'],
    ['PEM private key', `my server key:\n${PEM}\nplease keep it`, 'private_key'],
    ['Visa test card with spaces', 'my card is 4111 1111 1111 1111, expires 04/27', 'card_number'],
    ['Mastercard with dashes', 'charge 5555-5555-5555-4444 please', 'card_number'],
    ['Amex 4-6-5', 'amex 3782 822463 10005', 'card_number'],
    ['compact card', 'card 4012888888881881', 'card_number'],
    ['password in prose', 'my password is hunter2', 'password'],
    ['password for an account', 'my password for gmail is Tr0ub4dor&3', 'password'],
    ['password assignment', 'password: Summer2024!', 'password'],
    ['pwd=', 'connect with user=admin pwd=s3cr3tP4ss', 'password'],
    ['JSON password', '{"user": "bob", "password": "p@ss w0rd"}', 'password'],
    ['changed password to', 'I changed my password to Blue-Falcon-88', 'password'],
    ['Portuguese senha', 'a minha senha é gato1234', 'password'],
    ['PIN', 'my bank PIN is 4821', 'password'],
    ['JWT', `the session cookie is ${JWT}`, 'jwt'],
    ['Bearer token', 'curl -H "Authorization: Bearer 4f9aX2kLm8Qz7Rt1Vb6Nc3Wd" https://api.example.com', 'bearer_token'],
    ['Basic auth header', 'Authorization: Basic dXNlcjpwYXNzd29yZDEyMw==', 'bearer_token'],
    ['IBAN grouped', 'send it to IBAN GB82 WEST 1234 5698 7654 32 thanks', 'iban'],
    ['IBAN compact (PT)', 'o meu IBAN é PT50000201231234567890154', 'iban'],
    ['IBAN (DE)', 'Konto DE89 3704 0044 0532 0130 00', 'iban'],
    ['US SSN', 'my SSN is 536-22-1234', 'us_ssn'],
    ['postgres URL', 'DATABASE_URL=postgres://app:Sup3rS3cret@db.internal:5432/prod', 'connection_string'],
    ['mongodb+srv URL', 'mongodb+srv://alice:pa55w0rd@cluster0.ab1cd.mongodb.net/test?retryWrites=true', 'connection_string'],
    ['redis URL with empty user', 'redis://:hunter2@cache.local:6379/0', 'connection_string'],
  ];
  it.each(cases)('%s', (_name, text, kind) => {
    expect(kinds(text)).toEqual([kind]);
  });
});

describe('findSecrets: no false positives on ordinary chat', () => {
  const clean = [
    'I ran 42 km last weekend',
    'call me at +351 912 345 678',
    'my order 1234567890123 still has not arrived',
    'my flight is TP1234 on 2024-03-15 at 07:45',
    'the laptop costs €1,299.99, or $1,399.00 in the US',
    'I was born on 12/05/1988 and I am 1.82 m tall',
    'request id 550e8400-e29b-41d4-a716-446655440000 failed',
    'the fix is in commit da39a3ee5e6b4b0d3255bfef95601890afd80709',
    'sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    'md5 d41d8cd98f00b204e9800998ecf8427e',
    'see https://example.com/docs/getting-started?lang=en#install',
    'the doc is at https://drive.google.com/file/d/1AbCdEfGhIjKlMnOpQrStUvWxYz0123456/view',
    'email me at john.doe@example.com or jane+news@mail.example.org',
    'my password is wrong again, can you help me reset it?',
    'the password is too short, it needs 12 characters',
    'password: required',
    'I changed my password to something stronger',
    'boarding pass: TP1234 seat 12C',
    'pass the salt please',
    'I use sk-learn and pandas for data science',
    'my API key is not working since yesterday',
    'the class is called AbstractSingletonProxyFactoryBean2 in Spring',
    'COVID19VaccinationCertificate2021EU is the file name',
    'My ticket is ticket-4521, priority P1',
    'call 800-555-0199 or 555-12-34',
    'reference 000-12-3456 and 900-12-3456 are not SSNs',
    'the Bearer of this letter is my friend',
    'Bearer authentication-is-required-here',
    'secret: my-kubernetes-secret-name',
    'api_key = environment-variable-name',
    'I need a token for the bus',
    'timestamp 1700000000000 ms',
    'track number 7316 9245 7316 924',
    'mortgage rate 3.75% for 25 years, total 250 000 EUR',
  ];
  it.each(clean)('%s', (text) => {
    expect(findSecrets(text)).toEqual([]);
  });

  it('a 16-digit Luhn-invalid number is not a card, the Luhn-valid one is', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(findSecrets('card 4111 1111 1111 1112')).toEqual([]);
    expect(findSecrets('card 4111111111111112')).toEqual([]);
    expect(kinds('card 4111 1111 1111 1111')).toEqual(['card_number']);
  });

  it('Luhn-valid numbers that cannot be cards (issuer digit not 2–6) are not flagged', () => {
    // All four pass the Luhn check; 1… is a millisecond timestamp, 7/8/9… are not card issuers.
    for (const n of ['1700000000004', '712345678901230', '812345678901239', '912345678901238']) {
      expect(luhnValid(n)).toBe(true);
      expect(findSecrets(`ref ${n}`)).toEqual([]);
    }
  });

  it('IBAN needs a valid mod-97 checksum and the country length', () => {
    expect(ibanChecksumValid('GB82WEST12345698765432')).toBe(true);
    expect(ibanChecksumValid('GB83WEST12345698765432')).toBe(false);
    expect(findSecrets('IBAN GB83 WEST 1234 5698 7654 32')).toEqual([]);
    expect(findSecrets('code GB82WEST123456987654')).toEqual([]); // too short for GB
  });

  it('excluded SSN ranges are not flagged', () => {
    for (const ssn of ['000-12-3456', '666-12-3456', '912-34-5678', '123-00-4567', '123-45-0000', '078-05-1120']) {
      expect(findSecrets(`ssn ${ssn}`)).toEqual([]);
    }
  });

  it('a base64-encoded sentence is data, not a key', () => {
    const b64 = Buffer.from('hello world, this is a perfectly ordinary sentence').toString('base64');
    expect(findSecrets(b64)).toEqual([]);
  });
});

describe('redactSecrets', () => {
  it('replaces each secret with [REDACTED:<kind>] and counts kinds', () => {
    const input = `my card is 4111 1111 1111 1111 and my password is hunter2. Key: ${OPENAI_PROJ}`;
    const out = redactSecrets(input);
    expect(out.text).toBe(
      'my card is [REDACTED:card_number] and my password is [REDACTED:password]. Key: [REDACTED:api_key]',
    );
    expect(out.findings).toEqual({ card_number: 1, password: 1, api_key: 1 });
    expect(out.redacted).toBe(3);
  });

  it('keeps labels and surrounding syntax', () => {
    expect(redactSecrets('pwd=s3cr3tP4ss&user=bob').text).toBe('pwd=[REDACTED:password]');
    expect(redactSecrets('{"password": "p@ss w0rd"}').text).toBe('{"password": "[REDACTED:password]"}');
    expect(redactSecrets(`OPENAI_API_KEY=${OPENAI_LEGACY}`).text).toBe('OPENAI_API_KEY=[REDACTED:api_key]');
    expect(redactSecrets('Authorization: Bearer 4f9aX2kLm8Qz7Rt1Vb6Nc3Wd').text).toBe(
      'Authorization: Bearer [REDACTED:bearer_token]',
    );
    expect(redactSecrets('db: postgres://app:Sup3rS3cret@db.internal:5432/prod.').text).toBe(
      'db: [REDACTED:connection_string].',
    );
    expect(redactSecrets('IBAN GB82 WEST 1234 5698 7654 32 please').text).toBe('IBAN [REDACTED:iban] please');
    expect(redactSecrets('SSN 536-22-1234.').text).toBe('SSN [REDACTED:us_ssn].');
  });

  it('redacts a whole PEM block, and a truncated one', () => {
    expect(redactSecrets(`key:\n${PEM}\nthanks`).text).toBe('key:\n[REDACTED:private_key]\nthanks');
    const truncated = PEM.split('\n').slice(0, 3).join('\n');
    expect(redactSecrets(`${truncated}\n`).text).toBe('[REDACTED:private_key]\n');
  });

  it('counts repeated kinds and leaves clean text untouched', () => {
    const out = redactSecrets(`a ${GITHUB} b ${STRIPE} c`);
    expect(out.text).toBe('a [REDACTED:api_key] b [REDACTED:api_key] c');
    expect(out.findings).toEqual({ api_key: 2 });
    const clean = redactSecrets('I ran 42 km, call me at +351 912 345 678');
    expect(clean).toEqual({ text: 'I ran 42 km, call me at +351 912 345 678', findings: {}, redacted: 0 });
  });

  it('a JWT behind Bearer is reported once, as a JWT', () => {
    const out = redactSecrets(`Authorization: Bearer ${JWT}`);
    expect(out.text).toBe('Authorization: Bearer [REDACTED:jwt]');
    expect(out.findings).toEqual({ jwt: 1 });
  });

  it('partly overlapping matches are merged, so no fragment of a secret survives', () => {
    // The vendor rule stops at "/", the high-entropy rule continues: one merged api_key span.
    const out = redactSecrets(`key ${OPENAI_PROJ}/Zx9Qw8Er7Ty6Ui5Op4As3Df2 end`);
    expect(out.text).toBe('key [REDACTED:api_key] end');
    expect(out.redacted).toBe(1);
  });

  it('findings are sorted and non-overlapping', () => {
    const text = `token=${OPENAI_PROJ} card 5555555555554444 ${JWT}`;
    const found = findSecrets(text);
    expect(found.map((f) => f.kind)).toEqual(['api_key', 'card_number', 'jwt']);
    for (let i = 1; i < found.length; i++) expect(found[i].start).toBeGreaterThanOrEqual(found[i - 1].end);
    expect(text.slice(found[0].start, found[0].end)).toBe(OPENAI_PROJ);
  });
});

describe('looksLikeSecret', () => {
  it('recognises keys, even truncated ones', () => {
    expect(looksLikeSecret('sk-proj-abc...')).toBe(true);
    expect(looksLikeSecret(OPENAI_PROJ)).toBe(true);
    expect(looksLikeSecret(GITHUB)).toBe(true);
    expect(looksLikeSecret(MEM_TENANT)).toBe(true);
    expect(looksLikeSecret(JWT)).toBe(true);
    expect(looksLikeSecret('4111 1111 1111 1111')).toBe(true);
    expect(looksLikeSecret('Zx9Qw8Er7Ty6Ui5Op4As')).toBe(true);
  });

  it('does not flag ordinary references', () => {
    for (const v of ['ticket-4521', 'msg_2', 'turn 3', 'TP1234', '550e8400-e29b-41d4-a716-446655440000', 'sk-learn', '', 'order 1234567890123']) {
      expect(looksLikeSecret(v)).toBe(false);
    }
  });
});
