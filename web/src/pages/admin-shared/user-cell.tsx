import Box from '@cloudscape-design/components/box';

/** The full name people know the account by, or its e-mail when the account has no name. */
export function displayName(user: { firstName: string; lastName: string; email: string }): string {
  return `${user.firstName} ${user.lastName}`.trim() || user.email;
}

/** The 'Usuario' cell of both user tables: the name, with the e-mail under it. */
export function UserCell({ user }: { user: { firstName: string; lastName: string; email: string } }) {
  return (
    <div data-testid="user-cell" data-email={user.email}>
      <Box fontWeight="bold">{displayName(user)}</Box>
      <Box variant="small" color="text-body-secondary">
        {user.email}
      </Box>
    </div>
  );
}
