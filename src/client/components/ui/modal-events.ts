/** Open or close a modal by name from anywhere (page-wide events open-{name}, close-{name}), with no dialog code. */
export const openModal = (name: string) => window.dispatchEvent(new CustomEvent(`open-${name}`));
export const closeModal = (name: string) => window.dispatchEvent(new CustomEvent(`close-${name}`));
