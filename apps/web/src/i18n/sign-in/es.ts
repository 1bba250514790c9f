import type { SignInCatalogue } from './en.ts';

// The sign-in page's words in Spanish (see ./en.ts); es.ts takes them in.

export const signInEs: SignInCatalogue = {
  shell: {
    lightTheme: 'Cambiar a tema claro',
    darkTheme: 'Cambiar a tema oscuro',
    home: 'Inicio de Fleetline',
    getStarted: 'Empezar',
  },
  auth: {
    undoTitle: 'Deshacer el cambio de correo',
    undoIntro:
      'Alguien cambió el correo de su cuenta de Fleetline. Recupere su dirección: se cierran todas las sesiones y elige una nueva contraseña con el enlace que le enviamos.',
    undoButton: 'Recuperar mi correo',
    undone: 'Su correo ha vuelto',
    undoneBody:
      'Su cuenta vuelve a iniciar sesión con {{email}}. Se cerraron todas las sesiones. Enviamos a {{email}} un enlace para elegir una nueva contraseña: es válido una hora.',
    pageTitle: '{{title}} · Fleetline',
    logIn: 'Iniciar sesión',
    logInLink: 'Iniciar sesión',
    welcome: 'Bienvenido de nuevo',
    intro: 'Inicie sesión para ver su flota, sus conductores y sus horas de servicio.',
    seeding: 'Preparando los datos de demostración',
    seedingPercent: 'Preparando los datos de demostración ({{percent}} %)',
    seedingBody: 'Es el primer arranque del servidor. Las cuentas de la flota de demostración podrán entrar en un minuto; esta página se actualiza sola.',
    seedingFailed: 'Los datos de demostración todavía se están preparando: sus cuentas podrán entrar cuando estén listos.',
    failed: 'El correo o la contraseña no son correctos.',
    emailPlaceholder: 'usted@empresa.com',
    passwordPlaceholder: 'mínimo 8 caracteres',
    showPassword: 'Mostrar u ocultar la contraseña',
    forgotten: '¿Olvidó su contraseña?',
    newHere: '¿Es nuevo?',
    createAccount: 'Crear una cuenta',
    learnMore: 'Más información',
    resetTitle: 'Restablecer contraseña',
    resetIntro: 'Escriba el correo con el que inicia sesión y le enviaremos un enlace para elegir una nueva contraseña.',
    checkInbox: 'Revise su correo',
    resetSent: '{{message}} El enlace es válido por una hora.',
    sendLink: 'Enviar enlace',
    newTitle: 'Crear nueva contraseña',
    newIntro: 'Elija una nueva contraseña para su cuenta. Se cierran todas las demás sesiones.',
    changed: 'Contraseña cambiada',
    changedBody: 'Ya puede iniciar sesión con su nueva contraseña.',
    confirmNew: 'Confirmar nueva contraseña',
    saveNew: 'Guardar nueva contraseña',
  },
  fields: {
    email: 'Correo electrónico',
    password: 'Contraseña',
  },
  validation: {
    required: '{{label}}: campo obligatorio',
    email: '{{label}}: escriba una dirección de correo válida',
    max: '{{label}}: como máximo {{max}} caracteres',
  },
  server: {
    network: 'No hay conexión con el servidor. Revise la red e inténtelo de nuevo.',
    unknown: 'Algo salió mal. Inténtelo de nuevo.',
    tooMany: 'Demasiadas solicitudes: espere un momento e inténtelo de nuevo',
    tooManySignIns: 'Demasiados intentos fallidos. Inténtelo de nuevo en 15 minutos o restablezca su contraseña.',
  },
};
