import type { Employee } from '@portal/shared';

/** An employee as the responsible pickers offer it: its name, and its office beneath. */
export function employeeOption(employee: Employee): { value: string; label: string; description: string } {
  return { value: employee.id, label: employee.fullName, description: employee.office };
}
