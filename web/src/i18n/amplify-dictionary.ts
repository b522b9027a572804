import { translations } from '@aws-amplify/ui-react';
import { I18n } from 'aws-amplify/utils';
import { COMPLETIONS } from './amplify-vocabulary';

/**
 * Amplify UI's Spanish dictionary, completed with the portal's wording (./amplify-vocabulary.ts), registered when
 * this module loads: the login screen imports it.
 */
I18n.putVocabulariesForLanguage('es', { ...translations.es, ...COMPLETIONS });
