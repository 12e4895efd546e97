/** Interactive reply ids of the Confirm and Cancel buttons. */
export const CONFIRM_PREFIX = "ss-confirm:";
export const CANCEL_PREFIX = "ss-cancel:";
