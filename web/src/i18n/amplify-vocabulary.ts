import { I18n } from 'aws-amplify/utils';

/**
 * Strings the Amplify UI Spanish dictionary leaves in English, or words differently from the rest
 * of the portal (which uses "tú" and "correo electrónico").
 */
export const COMPLETIONS: Readonly<Record<string, string>> = {
  Email: 'Correo electrónico',
  'Enter your Email': 'Ingresa tu correo electrónico',
  'Enter your email': 'Ingresa tu correo electrónico',
  'Enter your Password': 'Ingresa tu contraseña',
  'Forgot your password?': '¿Olvidaste tu contraseña?',
  'Forgot Password?': '¿Olvidaste tu contraseña?',
  'Sign in': 'Iniciar sesión',
  'Sign In': 'Iniciar sesión',
  'Sign Out': 'Cerrar sesión',
  'Incorrect username or password.': 'Usuario o contraseña incorrectos.',
  'User does not exist.': 'Usuario o contraseña incorrectos.',
  'Confirm MFA Code': 'Confirmar código MFA',
  Continue: 'Continuar',
  'Enter your Confirmation Code': 'Ingresa tu código de confirmación',
  'Please enter your username first': 'Primero ingresa tu correo electrónico',
  'Other sign-in options': 'Otras opciones de inicio de sesión',
  'Sign In with Email': 'Iniciar sesión con correo electrónico',
  'Sign In with Password': 'Iniciar sesión con contraseña',
  'Unable to send verification code. Please try again.':
    'No se pudo enviar el código de verificación. Inténtalo nuevamente.',
  'Your verification code has expired. Please request a new code.':
    'Tu código de verificación expiró. Solicita uno nuevo.',
  'The verification code you entered is incorrect. Please try again.':
    'El código de verificación ingresado es incorrecto. Inténtalo nuevamente.',
  'Password attempts exceeded': 'Superaste el número de intentos permitidos.',
  'Network error': 'Error de red.',
};

/**
 * Makes Spanish Amplify's language, with the portal's own wording of the texts above. Amplify UI's whole
 * Spanish dictionary comes with the login screen (./amplify-dictionary.ts), where Amplify's sign-in flows run:
 * its module carries every language Amplify UI knows, too heavy for the first screen of every session.
 */
export function setUpAmplifyVocabulary(): void {
  I18n.putVocabulariesForLanguage('es', COMPLETIONS);
  I18n.setLanguage('es');
}
