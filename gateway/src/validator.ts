import { validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod';
import { controlCharactersMessage, findControlCharacters } from '@snapcracks/kit';

/**
 * Every route's validation (path parameters, query, JSON body): first the one rule all text shares — no control
 * characters, a 400 naming the field — then the route's zod schema. Part of validation, so authorization
 * (`preValidation`) still answers first: the signed out get 401 and members 403, whatever they sent.
 */
export const validatorCompiler: typeof zodValidatorCompiler = (route) => {
  const validate = zodValidatorCompiler(route);
  return (data) => {
    const field = findControlCharacters(data);
    return field ? { error: new Error(controlCharactersMessage(field)) } : validate(data);
  };
};
