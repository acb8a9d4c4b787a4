import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';

export function useSendContactMessageMutation() {
  return useMutation({ mutationFn: api.contact.send });
}
