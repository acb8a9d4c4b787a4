export function startEnvironment(env: NodeJS.ProcessEnv, options: { dev: boolean }): NodeJS.ProcessEnv;
