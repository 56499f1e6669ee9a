/** The receipts module's front door: what other modules and the app may use of it. */
export { fillReceiptMethod, issueCreditNote, issueReceipt, receiptOfInvoice } from './ledger.ts';
export { receiptRoutes } from './routes.ts';
export { createReceiptService } from './service.ts';
