/** Values the e2e server is started with (playwright.config.ts) that specs also need. */

/** LIFELINE_HEALTH_TOKEN of the e2e server: the health spec reads the detailed view with it, as a monitor would. */
export const E2E_HEALTH_TOKEN = "e2e-health-token-0123456789";
