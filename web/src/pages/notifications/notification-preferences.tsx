import { useEffect, useState } from 'react';
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import Toggle from '@cloudscape-design/components/toggle';
import { routes, type NotificationPreference } from '@portal/shared';
import { apiCall } from '../../api/client';
import { useApi } from '../../api/use-api';
import { useFeedback } from '../../feedback/feedback';
import { notificationMessages as text } from './messages';

/**
 * 'Preferencias de avisos' (ADR 0050): which kinds of notice reach the user's feed and which their e-mail, one row
 * per kind with two switches; a kind that is never e-mailed says so instead of its second switch. Saved whole.
 */
export function NotificationPreferencesModal(props: { visible: boolean; onDismiss: () => void; onSaved: () => void }) {
  const feedback = useFeedback();
  const { data, error, isLoading, mutate } = useApi(routes.getNotificationPreferences, {});
  const [items, setItems] = useState<NotificationPreference[]>([]);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (props.visible && data) setItems(data.items);
  }, [props.visible, data]);

  const change = (kind: string, field: 'feed' | 'email', value: boolean) =>
    setItems((current) => current.map((item) => (item.kind === kind ? { ...item, [field]: value } : item)));

  const save = async () => {
    setSaving(true);
    try {
      const saved = await apiCall(routes.putNotificationPreferences, {
        body: { items: items.map(({ kind, feed, email }) => ({ kind, feed, email })) },
      });
      await mutate(saved, { revalidate: false });
      feedback.success(text.preferences.saved);
      props.onSaved();
      props.onDismiss();
    } catch (failure) {
      feedback.error(failure);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      visible={props.visible}
      onDismiss={props.onDismiss}
      header={text.preferences.title}
      size="medium"
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={props.onDismiss}>
              {text.preferences.cancel}
            </Button>
            <Button variant="primary" loading={saving} disabled={!data} onClick={() => void save()}>
              {text.preferences.save}
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <SpaceBetween size="m">
        <Box variant="p">{text.preferences.description}</Box>
        {error ? <Alert type="error">{text.preferences.loadError}</Alert> : null}
        {isLoading ? <Spinner /> : null}
        <ul className="notification-preferences" aria-label={text.preferences.listLabel}>
          {items.map((item) => (
            <li key={item.kind} data-testid={`preference-${item.kind}`}>
              <Box fontWeight="bold">{item.label}</Box>
              <SpaceBetween direction="horizontal" size="l">
                <Toggle checked={item.feed} onChange={({ detail }) => change(item.kind, 'feed', detail.checked)}>
                  {text.preferences.feed}
                </Toggle>
                {item.email === null ? (
                  <Box color="text-body-secondary">{text.preferences.noEmail}</Box>
                ) : (
                  <Toggle checked={item.email} onChange={({ detail }) => change(item.kind, 'email', detail.checked)}>
                    {text.preferences.email}
                  </Toggle>
                )}
              </SpaceBetween>
            </li>
          ))}
        </ul>
      </SpaceBetween>
    </Modal>
  );
}
