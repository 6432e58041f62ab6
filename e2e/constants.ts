export const E2E_OPERATOR_TOKEN = "e2e-operator-token-0123456789";
