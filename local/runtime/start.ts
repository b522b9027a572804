import { loadLocalConfig } from './config.js';
import { demoAccountsListing } from './outputs.js';
import { stageClockOffset, stageClockStatus } from './stage-clock.js';
import { startLocalStage } from './stage.js';

/** `npm start`: the whole product on this machine, until Ctrl-C. */
async function main(): Promise<void> {
  const config = loadLocalConfig();
  console.log(`Iniciando el entorno local en ${config.dataDir} …`);
  const stage = await startLocalStage(config);
  const { outputs } = stage;

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal} recibido: deteniendo el entorno local…`);
    stage
      .stop()
      .then(() => process.exit(0))
      .catch((error: Error) => {
        console.error(error.message);
        process.exit(1);
      });
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  console.log(`
Portal de Proveedores — entorno local listo
  Web:      ${outputs.webUrl}
  API:      ${outputs.apiUrl}  (OpenAPI: ${outputs.apiUrl}/openapi.json)
  Cognito:  ${outputs.cognitoEndpoint}
  SUNAT:    ${outputs.endpoints.sunat}   SAP: ${outputs.endpoints.sap}
  Correo:   ${outputs.endpoints.mailbox}  (buzón local: los correos que envía el portal)
  SMTP:     ${outputs.endpoints.smtp}  (comprobantes por correo a facturas+<RUC>@${outputs.intakeMailDomain})
  Datos:    ${config.dataDir}  (salidas en ${config.dataDir}/outputs.json)

${demoAccountsListing(outputs.demoUsers)}

Ctrl-C detiene todo; el próximo "npm start" reutiliza los datos ("npm run reset" los borra).`);
  // A clock moved forward is kept across restarts: say so, with how to put it back.
  if (stageClockOffset(config.dataDir) > 0) {
    console.log(`\n${stageClockStatus(config.dataDir)} "npm run clock -- reset" vuelve a la hora real.`);
  }
}

main().catch((error: Error) => {
  console.error(`\nNo se pudo iniciar el entorno local: ${error.message}`);
  process.exit(1);
});
