// Bundles only (infra/lib/bundling.ts): no operation the functions call streams events (S3's
// SelectObjectContent, Kinesis' SubscribeToShard... do). The SDK loads event-stream support with a dynamic
// import, which a single-file bundle inlines; these stand-ins keep the clients' configuration working and
// refuse an event stream clearly if one is ever reached.
const refuse = () => {
  throw new Error('AWS SDK event streams are left out of the Lambda bundles (infra/lib/bundling.ts)');
};

export const eventStreamSerdeProvider = () => ({ serialize: refuse, deserialize: refuse });

export const resolveEventStreamSerdeConfig = (input) =>
  Object.assign(input, { eventStreamMarshaller: input.eventStreamSerdeProvider(input) });

export class EventStreamSerde {
  constructor() {
    refuse();
  }
}
