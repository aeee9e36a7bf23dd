import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

// A message about the whole form (not one field), read out by screen readers (role="alert").
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} py="xs">
      {message}
    </Alert>
  );
}
