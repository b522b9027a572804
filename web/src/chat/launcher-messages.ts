/**
 * What the chat assistant says before its panel is opened (the launcher of every signed-in screen and the
 * greeting); the rest, with the answers, is in ./messages.ts, which loads with the panel.
 */
export const chatLauncherMessages = {
  title: 'Asistente Know-How',
  open: 'Abrir el Asistente Know-How',
  launcher: 'Asistente',
  greeting: (firstName: string) =>
    `Hola${firstName ? `, ${firstName}` : ''}. Soy el Asistente Know-How del Portal de Proveedores. ` +
    'Puedo explicarte cómo usar el portal y consultar tus comprobantes: pregúntame, por ejemplo, ' +
    '"¿en qué estado está la F001-123?" o "¿cuándo me pagan?".',
};
