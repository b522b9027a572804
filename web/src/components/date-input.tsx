import { useRef } from 'react';
import Button from '@cloudscape-design/components/button';
import Calendar from '@cloudscape-design/components/calendar';
import Input, { type InputProps } from '@cloudscape-design/components/input';
import Popover, { type PopoverProps } from '@cloudscape-design/components/popover';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { START_OF_WEEK, formatDate, parseTypedDate } from '@portal/shared';
import { messages } from '../messages';

const text = messages.dateInput;

/** A calendar day (a Date at local midnight, as Cloudscape's Calendar hands them) as yyyy-mm-dd. */
const isoOf = (day: Date) =>
  `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;

export interface DateInputProps {
  /** The date as the user typed it (dd/mm/aa); the form reads it with parseTypedDate. */
  readonly value: string;
  readonly onChange: (typed: string) => void;
  readonly onBlur?: () => void;
  readonly invalid?: boolean;
  readonly ariaRequired?: boolean;
  /** Which days the calendar offers (yyyy-mm-dd); a typed day is still checked by the form. */
  readonly isDateEnabled?: (date: string) => boolean;
  /** Why a day the calendar does not offer is not offered, read to whoever reaches it. */
  readonly dateDisabledReason?: (date: string) => string;
}

/**
 * A date typed as people in Peru write it, dd/mm/aa (spec §1, §9), beside a button that opens a calendar
 * whose weeks start on Monday. Cloudscape's DatePicker only takes year-first input (AAAA/MM/DD), so this is
 * an Input, which keeps what the user types, and a Calendar in a Popover, which types the chosen day. The
 * FormField around it labels the input and shows the form's message.
 */
export function DateInput(props: DateInputProps) {
  const popover = useRef<PopoverProps.Ref>(null);
  const input = useRef<InputProps.Ref>(null);
  const parsed = parseTypedDate(props.value);
  const selected = 'date' in parsed ? parsed.date : '';

  return (
    <SpaceBetween direction="horizontal" size="xs" alignItems="center">
      <div style={{ width: '9rem' }}>
        <Input
          ref={input}
          value={props.value}
          placeholder={text.placeholder}
          inputMode="numeric"
          autoComplete={false}
          spellcheck={false}
          invalid={props.invalid}
          ariaRequired={props.ariaRequired}
          onChange={({ detail }) => props.onChange(detail.value.slice(0, 10))}
          onBlur={props.onBlur}
        />
      </div>
      <Popover
        ref={popover}
        triggerType="custom"
        position="bottom"
        size="large"
        dismissAriaLabel={text.closeCalendar}
        content={
          <Calendar
            value={selected}
            locale="es-PE"
            startOfWeek={START_OF_WEEK}
            ariaLabel={text.calendar}
            isDateEnabled={props.isDateEnabled ? (day) => props.isDateEnabled!(isoOf(day)) : undefined}
            dateDisabledReason={props.dateDisabledReason ? (day) => props.dateDisabledReason!(isoOf(day)) : undefined}
            i18nStrings={{
              todayAriaLabel: text.today,
              nextMonthAriaLabel: text.nextMonth,
              previousMonthAriaLabel: text.previousMonth,
            }}
            onChange={({ detail }) => {
              props.onChange(formatDate(detail.value));
              popover.current?.dismiss();
              input.current?.focus();
            }}
          />
        }
      >
        <Button
          formAction="none"
          variant="icon"
          iconName="calendar"
          ariaLabel={text.openCalendar(selected ? formatDate(selected) : null)}
        />
      </Popover>
    </SpaceBetween>
  );
}
